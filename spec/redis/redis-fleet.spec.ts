import { createClient } from 'redis';
import { PlatformClient } from '../../lib/index.js';
import type { SessionEndEvent } from '../../lib/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { createRedisFleet } from '../../lib/redis/index.js';
import type { RedisFleet } from '../../lib/redis/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { startTestRedis, useRedis } from '../support/redis-server.js';
import { recordingLogger } from '../support/http-apps.js';
import { until } from '../support/until.js';

interface Instance {
  client: PlatformClient;
  fleet: RedisFleet;
  ends: SessionEndEvent[];
}

describe('three clients on one Redis (real redis-server)', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const rx = useRedis();
  let prefixCount = 0;
  const open: Instance[] = [];
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;
  const login = (): string => fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;

  async function instances(n: number, samePrefix = false): Promise<Instance[]> {
    if (!samePrefix) prefixCount += 1;
    const prefix = `pgp-test-${prefixCount}:`;
    const made: Instance[] = [];
    for (let i = 0; i < n; i += 1) {
      const fleet = createRedisFleet({ url: rx.redis.url, prefix, maxReconnectDelayMs: 100, logger: recordingLogger() });
      await fleet.ready();
      // Budgets a busy machine cannot outlast: these tests are about sharing, not about a slow
      // store (a late revocation read answers 503 by design; spec/redis/fail-closed.spec.ts).
      const client = new PlatformClient({
        ...configFor(fx.emulator, { cache: { ttlMs: 30_000 } }), store: fleet.store, revocations: fleet.revocations, storeTimeoutMs: 5000,
      });
      const instance = { client, fleet, ends: [] as SessionEndEvent[] };
      client.on('session-end', (event) => instance.ends.push(event));
      made.push(instance);
      open.push(instance);
    }
    return made;
  }

  afterEach(async () => {
    for (const { client, fleet } of open.splice(0)) {
      await client.close();
      await fleet.close();
    }
  });

  it('shares one verification among the instances, and Redis holds no token or secret', async () => {
    const [a, b, c] = await instances(3);
    const token = login();
    await a!.client.verifyUserToken(token);
    await until(async () => (await b!.fleet.store.get(`${b!.client.tenantScope}:E2:${tokenKey(token)}`)) !== undefined, 15_000, 'the shared entry');
    for (const i of [b!, c!, a!, b!, c!]) expect(await i.client.verifyUserToken(token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(e2Count()).toBe(1);
    await a!.client.revokeUserToken(login());

    const raw = createClient({ url: rx.redis.url });
    await raw.connect();
    try {
      const keys = await raw.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      const dump = [];
      // The session-end log is a stream; every other key a string.
      for (const key of keys) dump.push(key, (await raw.type(key)) === 'stream' ? await raw.xRange(key, '-', '+') : await raw.get(key));
      const text = JSON.stringify(dump);
      for (const secret of [token, DEMO.clientSecret]) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/eyJ/); // no JWT-looking token either
      for (const key of keys) expect(key).toMatch(/^pgp-test-\d+:([0-9a-f]{16}:(E2|web|revoked):[0-9a-f]{64}|revoked:[0-9a-f]{64}|(\{[0-9a-f]{16}\}:)?session-end-log)$/);
      for (const key of keys) expect(await raw.pTTL(key)).toBeGreaterThan(0); // nothing stays for ever
    } finally {
      await raw.close();
    }
  });

  it('a revocation on one instance makes the others refuse the token, cached or not, and end its sessions', async () => {
    const [a, b, c] = await instances(3);
    const token = login();
    for (const i of [a!, b!, c!]) await i.client.verifyUserToken(token);
    // How soon is a bench figure (bench/scale-out.ts); here, that it happens at all.
    await a!.client.revokeUserToken(token);
    const refusedBy = async (i: Instance): Promise<boolean> => {
      const error = await rejectionOf(() => i.client.verifyUserToken(token));
      return (error as { status?: number } | undefined)?.status === 401;
    };
    await until(async () => (await refusedBy(b!)) && (await refusedBy(c!)), 15_000, 'the other instances to refuse the token');
    expectPlatformError(await rejectionOf(() => a!.client.verifyUserToken(token)), 'invalid_token', 401);
    const event = { kind: 'token', tokenKey: tokenKey(token), reason: 'logout' };
    await until(() => b!.ends.length === 1 && c!.ends.length === 1, 15_000, 'session-end on the others');
    // Every instance sees the end stamped with when it was made (the maker's clock).
    for (const i of [a!, b!, c!]) expect(i.ends).toEqual([{ ...event, at: a!.ends[0]!.at }]);
    expect(a!.ends[0]!.at).toEqual(expect.any(Number));
    // A new instance that missed the message learns it from Redis.
    const [late] = await instances(1, true);
    expectPlatformError(await rejectionOf(() => late!.client.verifyUserToken(token)), 'invalid_token', 401);
  });

  it('ends a member\'s sessions on every instance', async () => {
    const [a, b, c] = await instances(3);
    await a!.client.endMemberSessions(DEMO.admin, 'admin');
    await until(() => b!.ends.length === 1 && c!.ends.length === 1, 15_000, 'the member event');
    for (const i of [a!, b!, c!]) expect(i.ends).toEqual([{ kind: 'member', memberNo: DEMO.admin, reason: 'admin', at: expect.any(Number) }]);
  });

  it('keeps answering through the platform while Redis is down, and shares again once it is back', async () => {
    if (!rx.redis.own) return; // REDIS_URL: not ours to kill
    const [a, b] = await instances(2);
    const token = login();
    await a!.client.verifyUserToken(token);
    await rx.redis.kill();
    await until(() => a!.client.storeHealth.state !== 'ready', 15_000, 'the store to be seen down');
    expect(a!.client.health()).toMatchObject({ store: expect.stringMatching(/^(down|connecting)$/) });
    const before = e2Count();
    for (const i of [a!, b!, a!]) expect(await i.client.verifyUserToken(token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(e2Count()).toBe(before + 3);
    // Revoked while Redis is down: holds here at once, reaches the others when Redis is back.
    const revoked = login();
    await a!.client.revokeUserToken(revoked);
    expectPlatformError(await rejectionOf(() => a!.client.verifyUserToken(revoked)), 'invalid_token', 401);
    expect(a!.client.storeHealth.unsyncedRevocations).toBe(1);

    await rx.redis.restart();
    await until(() => a!.client.storeHealth.ready && b!.client.storeHealth.ready, 15_000, 'the reconnection');
    expect(a!.client.health()).toMatchObject({ store: 'ok' });
    const fresh = login();
    await a!.client.verifyUserToken(fresh);
    await until(async () => (await b!.fleet.store.get(`${b!.client.tenantScope}:E2:${tokenKey(fresh)}`)) !== undefined, 15_000, 'the shared entry');
    const shared = e2Count();
    await b!.client.verifyUserToken(fresh);
    expect(e2Count()).toBe(shared);
    await until(() => a!.client.storeHealth.unsyncedRevocations === 0, 15_000, 'the unsynced revocation to be sent');
    expectPlatformError(await rejectionOf(() => b!.client.verifyUserToken(revoked)), 'invalid_token', 401);
  });
  it('sends a revocation made while Redis was down as soon as Redis is back, with no other request on that instance', async () => {
    if (!rx.redis.own) return; // REDIS_URL: not ours to kill
    const [a, b] = await instances(2);
    await rx.redis.kill();
    await until(() => a!.client.storeHealth.state !== 'ready', 15_000, 'the store to be seen down');
    const revoked = login();
    await a!.client.revokeUserToken(revoked);
    expect(a!.client.storeHealth.unsyncedRevocations).toBe(1);
    await rx.redis.restart();
    // Nothing is asked of A: the reconnection alone sends what it holds.
    await until(() => a!.client.storeHealth.unsyncedRevocations === 0, 15_000, 'the unsynced revocation to be sent');
    // B reads the store again once it has reconnected too (until then it serves through the platform).
    await until(() => b!.client.storeHealth.state === 'ready', 15_000, 'B to reconnect');
    expectPlatformError(await rejectionOf(() => b!.client.verifyUserToken(revoked)), 'invalid_token', 401);
  });
});

describe('a Redis that refuses our commands, or cannot be reached', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });

  it('reports the store down and says so once when Redis refuses every command though the connection is up (an ACL user without key rights)', async () => {
    const redis = await startTestRedis(['--user', 'default', 'off', '--user', 'app', 'on', '>app-pw', '+@connection']);
    const logger = recordingLogger();
    const fleet = createRedisFleet({ url: redis.url.replace('redis://', 'redis://app:app-pw@'), prefix: 'pgp-noperm:', logger });
    await fleet.ready();
    const client = new PlatformClient({ ...configFor(fx.emulator, { cache: { ttlMs: 30_000 }, logger }), store: fleet.store, revocations: fleet.revocations });
    try {
      expect(fleet.store.health()).toEqual({ state: 'ready' }); // the connection itself is fine
      const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
      for (let i = 0; i < 3; i += 1) expect(await client.verifyUserToken(token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
      expect(client.storeHealth.state).toBe('down');
      expect(client.health()).toMatchObject({ store: 'down' });
      const lines = logger.lines.filter((line) => line.msg?.includes('verification store keeps failing'));
      expect(lines).toHaveLength(1);
      expect(JSON.stringify(lines[0])).toContain('NOPERM');
      expect(JSON.stringify(logger.lines)).not.toContain('app-pw');
    } finally {
      await client.close();
      await fleet.close();
      await redis.stop();
    }
  });

  it('logs an unreachable Redis once a minute, never with the password of its URL', async () => {
    const logger = recordingLogger();
    const fleet = createRedisFleet({ url: 'redis://user:s3cret-pw@127.0.0.1:1', prefix: 'pgp-down:', logger, maxReconnectDelayMs: 20 });
    try {
      await until(() => logger.lines.length > 0, 15_000, 'a log line');
      await until(() => fleet.health().state !== 'ready', 15_000, 'the fleet to be seen down');
      expect(logger.lines).toHaveLength(1); // reconnection attempts every 20 ms, one line
      expect(JSON.stringify(logger.lines)).not.toContain('s3cret-pw');
      expect(JSON.stringify(logger.lines[0])).toMatch(/ECONNREFUSED/);
    } finally {
      await fleet.close();
    }
  });
});
