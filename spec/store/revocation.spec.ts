import diagnosticsChannel from 'node:diagnostics_channel';
import { CHANNELS } from '../../lib/diagnostics/channels.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import type { RevocationBus, SessionEndEvent } from '../../lib/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, clientsOn, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('revokeUserToken and endMemberSessions on one instance', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const client = clientsOn(() => fx.emulator, { cache: { ttlMs: 30_000 } });
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

  it('refuses a revoked token with 401 relogin although the platform still accepts it and it was cached', async () => {
    const c = client();
    const ends: SessionEndEvent[] = [];
    c.on('session-end', (event) => ends.push(event));
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await c.verifyUserToken(token);
    await c.revokeUserToken(token);
    const error = expectPlatformError(await rejectionOf(() => c.verifyUserToken(token)), 'invalid_token', 401);
    expect(error.action).toBe('relogin');
    expect(error.code).toBeUndefined();
    expectPlatformError(await rejectionOf(() => c.verifyWebToken(token)), 'invalid_token', 401);
    expect(e2Count()).toBe(1);
    expect(ends).toEqual([{ kind: 'token', tokenKey: tokenKey(token), reason: 'logout', at: expect.any(Number) }]);
    // Other tokens of the same member are not affected.
    await c.verifyUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
  });

  it('refuses a token revoked while its verification was in flight', async () => {
    const c = client({ cache: false });
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 100, count: 1 });
    const pending = rejectionOf(() => c.verifyUserToken(token));
    await c.revokeUserToken(token);
    expectPlatformError(await pending, 'invalid_token', 401);
  });

  it('emits a member session end and publishes revocations and cache lookups on diagnostics channels', async () => {
    const c = client();
    const seen: Array<[string, unknown]> = [];
    const onCache = (m: unknown): void => void seen.push(['cache', m]);
    const onRevocation = (m: unknown): void => void seen.push(['revocation', m]);
    diagnosticsChannel.subscribe(CHANNELS.cache, onCache);
    diagnosticsChannel.subscribe(CHANNELS.revocation, onRevocation);
    try {
      const ends: SessionEndEvent[] = [];
      c.on('session-end', (event) => ends.push(event));
      await c.endMemberSessions(DEMO.admin, 'admin');
      expect(ends).toEqual([{ kind: 'member', memberNo: DEMO.admin, reason: 'admin', at: expect.any(Number) }]);
      const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await c.verifyUserToken(token);
      await c.verifyUserToken(token);
      await c.revokeUserToken(token);
      expect(seen).toEqual([
        ['cache', { kind: 'E2', hit: false, store: 'memory' }],
        ['cache', { kind: 'E2', hit: true, store: 'memory' }],
        ['revocation', { tokenFingerprint: tokenKey(token).slice(0, 8), origin: 'local' }],
      ]);
    } finally {
      diagnosticsChannel.unsubscribe(CHANNELS.cache, onCache);
      diagnosticsChannel.unsubscribe(CHANNELS.revocation, onRevocation);
    }
  });

  it('keeps the revocation here when the bus cannot publish, and reports it', async () => {
    const bus: RevocationBus = { publish: () => Promise.reject(new Error('down')), subscribe: () => () => undefined, health: () => ({ state: 'down' }) };
    const c = client({ revocations: bus });
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await expect(c.revokeUserToken(token)).resolves.toBeUndefined();
    expectPlatformError(await rejectionOf(() => c.verifyUserToken(token)), 'invalid_token', 401);
    expect(c.storeHealth).toMatchObject({ kind: 'memory', ready: true, unsyncedRevocations: 1, bus: 'down' });
  });
});
