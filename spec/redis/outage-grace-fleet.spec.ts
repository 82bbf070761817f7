import { Registry } from 'prom-client';
import { createApp } from '../../example-app/create-app.js';
import { createAuthenticator } from '../../lib/auth/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import { collectGamePlatformMetrics } from '../../lib/prometheus/index.js';
import { SessionRegistry, type ConnectionEnding } from '../../lib/realtime/index.js';
import { createRedisFleet, type RedisFleet } from '../../lib/redis/index.js';
import { DEMO, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { listenOnLoopback } from '../support/app-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { recordingLogger } from '../support/recording-logger.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';

// Two instances on one Redis, with the outage grace on and no verification cache: what one
// verified, the other serves in grace; a logout on either holds on both, outage or not.
describe('the outage grace shared by two instances', () => {
  let emulator: Emulator;
  let redis: TestRedis;
  const fleets: RedisFleet[] = [];
  const clients: PlatformClient[] = [];
  beforeAll(async () => {
    [emulator, redis] = await Promise.all([startTestEmulator(), startTestRedis()]);
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(fleets.map((f) => f.close()));
    await redis?.stop();
    await emulator?.close();
  });

  async function instance(cacheTtlMs?: number): Promise<PlatformClient> {
    const fleet = createRedisFleet({ url: redis.url, prefix: 'pgp-grace:', maxReconnectDelayMs: 200, logger: recordingLogger() });
    await fleet.ready();
    fleets.push(fleet);
    const client = new PlatformClient({
      ...configFor(emulator, { timeoutMs: 500, totalTimeoutMs: 1500, retries: 1, logger: recordingLogger(), ...(cacheTtlMs === undefined ? {} : { cache: { ttlMs: cacheTtlMs } }) }),
      store: fleet.store, revocations: fleet.revocations, outageGraceMs: 60_000,
    });
    await client.ready();
    clients.push(client);
    return client;
  }

  it('B serves in grace what A verified; a logout on B during the outage (204) makes A refuse it and end its session; the figures say so', async () => {
    const metrics = new Registry();
    const stop = collectGamePlatformMetrics({ register: metrics });
    const [a, b] = [await instance(), await instance()];
    const app = await listenOnLoopback(createApp({ client: b, adminMemberNos: [], logger: recordingLogger() }));
    const sessions = new SessionRegistry({ authenticate: createAuthenticator({ client: a }), events: a, reverifyIntervalMs: 0 });
    try {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      const refusedLater = emulator.login(DEMO.player, DEMO.gameId).access_token;
      const user = await a.verifyUserToken(token);
      await a.verifyUserToken(refusedLater);
      const ended: ConnectionEnding[] = [];
      sessions.add({ transport: 'ws', user, token, close: (ending) => void ended.push(ending) });

      emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: Infinity });
      expect(await b.verifyUserToken(token)).toEqual({ ...user, servedInGrace: true });
      const me = await fetch(`${app.url}/api/me`, { headers: { Authorization: `Bearer ${token}` } });
      expect([me.status, await me.json()]).toEqual([200, { member_no: user.memberNo, guid: user.guid, served_in_grace: true }]);
      const unseen = await fetch(`${app.url}/api/me`, { headers: { Authorization: `Bearer ${emulator.login(DEMO.player, DEMO.gameId).access_token}` } });
      expect([unseen.status, unseen.headers.get('retry-after')]).toEqual([503, expect.stringMatching(/^[1-9][0-9]*$/)]);
      const logout = await fetch(`${app.url}/api/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      expect(logout.status).toBe(204);
      await until(() => sessions.size === 0, 5000, 'A to end the session logged out on B');
      expect(ended).toEqual([{ kind: 'ended', reason: 'logout' }]);
      expectPlatformError(await rejectionOf(() => a.verifyUserToken(token)), 'invalid_token', 401);
      expectPlatformError(await rejectionOf(() => b.verifyUserToken(token)), 'invalid_token', 401);

      // The platform back: what it refuses now is refused, and no grace is left for it anywhere.
      emulator.clearFaults();
      emulator.logout(refusedLater);
      expectPlatformError(await rejectionOf(() => a.verifyUserToken(refusedLater)), 'invalid_token', 401);
      emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: Infinity });
      expectPlatformError(await rejectionOf(() => b.verifyUserToken(refusedLater)), 'platform_unavailable', 503);

      const text = await metrics.metrics();
      // B's verification, GET /api/me and the logout request were served in grace.
      expect(text).toMatch(/^game_platform_outage_grace_served_total 3$/m);
      // A applied B's revocation once; B records no lag for its own (Redis echoes it).
      expect(text).toMatch(/^game_platform_revocation_lag_seconds_count 1$/m);
      expect(text).toMatch(/^game_platform_sessions_ended_total\{reason="logout"\} 1$/m);
      expect(text).toMatch(/^game_platform_sessions_ended_total\{reason="bound"\} 0$/m);
      for (const secret of [token, DEMO.admin, user.guid!]) expect(text).not.toContain(secret);
    } finally {
      emulator.clearFaults();
      stop();
      sessions.closeAll('shutdown');
      await app.close();
    }
  }, 20_000);

  it('shares the record with the verification cache on too: once the cached entry has expired, B still serves in grace what A verified', async () => {
    const [a, b] = [await instance(1000), await instance(1000)];
    const token = emulator.login(DEMO.noGuid, DEMO.gameId).access_token;
    const user = await a.verifyUserToken(token);
    emulator.advanceClock(1000);
    emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: Infinity });
    try {
      expect(await b.verifyUserToken(token)).toEqual({ ...user, servedInGrace: true });
    } finally {
      emulator.clearFaults();
    }
  });
});
