import diagnosticsChannel from 'node:diagnostics_channel';
import { PlatformClient } from '../../lib/index.js';
import type { GameUser, PlatformConfig } from '../../lib/index.js';
import { CHANNELS } from '../../lib/diagnostics/channels.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, recordingLogger, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

const GRACE_MS = 60_000;

describe('the outage grace of a client', () => {
  let emulator: Emulator;
  const open: PlatformClient[] = [];
  // Frozen: the platform's clock (the client's too) moves only by advanceClock, so the grace's
  // boundaries hold however slowly the machine runs.
  beforeAll(async () => {
    emulator = await startTestEmulator({ clock: 'frozen' });
  });
  afterEach(async () => {
    emulator.clearFaults();
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  afterAll(() => emulator.close());

  const clientWith = (options: Partial<PlatformConfig> & { outageGraceMs?: number }): PlatformClient => {
    const client = new PlatformClient({ ...configFor(emulator, { timeoutMs: 300, totalTimeoutMs: 800, retries: 1 }), ...options });
    open.push(client);
    return client;
  };
  const token = (memberNo: string = DEMO.admin): string => emulator.login(memberNo, DEMO.gameId).access_token;
  const outage = (endpoint: 'E1' | 'E2' = 'E2'): void => emulator.injectFault({ endpoint, type: 'http5xx', status: 503, count: Infinity });

  it('is off by default: a token verified a moment ago gets 503 in an outage', async () => {
    const client = clientWith({});
    const bearer = token();
    await client.verifyUserToken(bearer);
    outage();
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(bearer)), 'platform_unavailable', 503);
  });

  it('serves a verified token with the same ids, marked, and never one it has not seen; the platform back, it asks the platform again', async () => {
    const logger = recordingLogger();
    const client = clientWith({ outageGraceMs: GRACE_MS, logger });
    const bearer = token(DEMO.player);
    const verified = await client.verifyUserToken(bearer);
    expect(verified).toEqual({ memberNo: DEMO.player, guid: expect.any(String) });
    const served: unknown[] = [];
    const listener = (message: unknown): void => void served.push(message);
    diagnosticsChannel.subscribe(CHANNELS.outageGrace, listener);
    try {
      outage();
      const inGrace = await client.verifyUserToken(bearer);
      expect(inGrace).toEqual({ ...verified, servedInGrace: true });
      // A { memberNo, guid } consumer reads the same values.
      const { memberNo, guid }: GameUser = inGrace;
      expect({ memberNo, guid }).toEqual(verified);
      expectPlatformError(await rejectionOf(() => client.verifyUserToken(token())), 'platform_unavailable', 503);
      expect(served).toEqual([{ kind: 'E2' }]);
      emulator.clearFaults();
      expect(await client.verifyUserToken(bearer)).toEqual(verified);
    } finally {
      diagnosticsChannel.unsubscribe(CHANNELS.outageGrace, listener);
    }
    // One line when the window opened, one with its counts when it closed.
    expect(logger.lines.filter((line) => line.msg.includes('grace')).map(({ level, obj }) => [level, obj])).toEqual([
      ['warn', { outageGraceMs: GRACE_MS }],
      ['info', { servedInGrace: 1, refusedInGrace: 1, durationMs: expect.any(Number) }],
    ]);
  });

  it('serves in grace through an E1 outage too (the API token refused, E1 down)', async () => {
    const client = clientWith({ outageGraceMs: GRACE_MS });
    const bearer = token();
    await client.verifyUserToken(bearer);
    emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: 1 });
    outage('E1');
    expect(await client.verifyUserToken(bearer)).toMatchObject({ memberNo: DEMO.admin, servedInGrace: true });
  });

  it('serves in grace while the circuit is open, without calling the platform', async () => {
    const client = clientWith({ outageGraceMs: GRACE_MS, circuitBreaker: { failureThreshold: 1, openMs: 60_000 } });
    const bearer = token();
    await client.verifyUserToken(bearer);
    emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: 2 });
    expect(await client.verifyUserToken(bearer)).toMatchObject({ servedInGrace: true });
    emulator.clearFaults();
    expect(client.load.circuit).toBe('open');
    const calls = emulator.requests({ endpoint: 'E2' }).length;
    expect(await client.verifyUserToken(bearer)).toMatchObject({ memberNo: DEMO.admin, servedInGrace: true });
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(calls);
  });

  it('never serves a token the platform refused, or one the game revoked', async () => {
    // No refusal memory: the grace alone must refuse it.
    const client = clientWith({ outageGraceMs: GRACE_MS, invalidTokenCacheMs: 0 });
    const refused = token();
    const revoked = token();
    await client.verifyUserToken(refused);
    await client.verifyUserToken(revoked);
    emulator.logout(refused);
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(refused)), 'invalid_token', 401);
    await client.revokeUserToken(revoked);
    outage();
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(refused)), 'platform_unavailable', 503);
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(revoked)), 'invalid_token', 401);
    // With the default refusal memory, the refused token is a 401 during the outage.
    const remembering = clientWith({ outageGraceMs: GRACE_MS });
    emulator.clearFaults();
    const another = token();
    await remembering.verifyUserToken(another);
    emulator.logout(another);
    expectPlatformError(await rejectionOf(() => remembering.verifyUserToken(another)), 'invalid_token', 401);
    outage();
    expectPlatformError(await rejectionOf(() => remembering.verifyUserToken(another)), 'invalid_token', 401);
  });

  it('counts the grace from the last platform verification, on the client clock: an answer in grace does not renew it', async () => {
    const client = clientWith({ outageGraceMs: 1000 });
    const bearer = token();
    const old = token();
    await client.verifyUserToken(bearer);
    await client.verifyUserToken(old);
    emulator.advanceClock(1000);
    await client.verifyUserToken(bearer);
    outage();
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(old)), 'platform_unavailable', 503);
    emulator.advanceClock(600);
    expect(await client.verifyUserToken(bearer)).toMatchObject({ servedInGrace: true });
    emulator.advanceClock(400);
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(bearer)), 'platform_unavailable', 503);
  });

  it('checks outageGraceMs', () => {
    for (const bad of [-1, 1.5, '1000', 3_600_001]) {
      expect(() => clientWith({ outageGraceMs: bad as number })).toThrow('PlatformClient: outageGraceMs must be an integer number of ms from 0 to 3600000');
    }
    expect(() => clientWith({ outageGraceMs: 3_600_000 })).not.toThrow();
  });
});
