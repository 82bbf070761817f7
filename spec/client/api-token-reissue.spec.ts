import { PlatformClient } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, recordingLogger, configFor, recordEvents, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe.each(['platform', 'http'] as const)('API token reissue after 40101/40103 (errorStatus "%s")', (errorStatus) => {
  let emulator: Emulator;
  const open: PlatformClient[] = [];
  // These tests count platform calls: timeouts far above any answer time keep
  // a busy machine from turning a slow answer into a retry (one more call).
  const client = (overrides: Partial<PlatformConfig> = {}): PlatformClient => {
    const c = new PlatformClient(configFor(emulator, { timeoutMs: 10_000, totalTimeoutMs: 20_000, ...overrides }));
    open.push(c);
    return c;
  };
  const count = (endpoint: 'E1' | 'E2' | 'E3'): number => emulator.requests({ endpoint }).length;
  const user = (): string => emulator.login(DEMO.admin, DEMO.gameId).access_token;
  beforeEach(async () => {
    emulator = await startTestEmulator({ errorStatus, clock: 'frozen' });
  });
  afterEach(async () => {
    for (const c of open.splice(0)) void c.close();
    await emulator.close();
  });

  it.each([40101, 40103])('reissues once after %i on E2 and the call succeeds', async (code) => {
    const c = client();
    const { calls } = recordEvents(c);
    await c.provider.getToken();
    emulator.injectFault({ endpoint: 'E2', type: 'code', code, count: 1 });
    expect(await c.verifyUserToken(user())).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect([count('E1'), count('E2')]).toEqual([2, 2]);
    expect(calls.at(-1)).toMatchObject({ endpoint: 'E2', outcome: 'success', attempts: 2, reissued: true });
  });

  it('reissues once after 40101 on E3 and the lookup succeeds', async () => {
    const c = client();
    await c.provider.getToken();
    emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, count: 1 });
    expect(await c.lookupMember({ memberNo: DEMO.admin })).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect([count('E1'), count('E3')]).toEqual([2, 2]);
  });

  it('gets a new token when the platform really expired ours (40103), then succeeds', async () => {
    // The provider runs on its own clock, so it still trusts the token the emulator let expire.
    let now = 0;
    const c = client({ clientId: 'short-client', clientSecret: 'short-secret-value', clock: { now: () => now } });
    const first = await c.provider.getToken();
    emulator.advanceClock(1_000_000);
    now += 1000;
    expect(await c.verifyUserToken(user())).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    const [rejected, retried] = emulator.requests({ endpoint: 'E2' });
    expect([rejected?.code, retried?.code, count('E1')]).toEqual([40103, 0, 2]);
    expect(await c.provider.getToken()).not.toBe(first);
  });

  it('stops after one reissue when the token is refused again: configuration error, one log line, no loop (E1 may hand the refused token back)', async () => {
    const logger = recordingLogger();
    const c = client({ logger });
    await c.provider.getToken();
    emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: -1 });
    const error = expectPlatformError(await rejectionOf(() => c.verifyUserToken(user())), 'configuration', 500);
    expect([error.code, error.action]).toEqual([40101, 'contact_support']);
    expect([count('E1'), count('E2')]).toEqual([2, 2]);
    for (let i = 0; i < 5; i += 1) {
      expectPlatformError(await rejectionOf(() => c.verifyUserToken(user())), 'configuration', 500);
    }
    // Later calls still try E2 (a passing glitch heals) but never E1, and log nothing more.
    expect([count('E1'), count('E2')]).toEqual([2, 7]);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]?.msg).toContain('after one reissue');
    emulator.clearFaults();
    expect(await c.verifyUserToken(user())).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
  });
});

describe('recovery once the platform accepts our API token again', () => {
  let emulator: Emulator;
  let c: PlatformClient;
  const count = (endpoint: 'E1' | 'E2'): number => emulator.requests({ endpoint }).length;
  const user = (): string => emulator.login(DEMO.admin, DEMO.gameId).access_token;
  const PLAYER = { memberNo: DEMO.admin, guid: DEMO.adminGuid };
  beforeEach(async () => {
    emulator = await startTestEmulator({ clock: 'frozen' });
    c = new PlatformClient(configFor(emulator));
  });
  afterEach(async () => {
    await c.close();
    await emulator.close();
  });

  it('serves a single 40101 and then a 40103 with 200 at once after a 40101 storm heals', async () => {
    await c.provider.getToken();
    emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: -1 });
    for (let i = 0; i < 5; i += 1) {
      expectPlatformError(await rejectionOf(() => c.verifyUserToken(user())), 'configuration', 500);
    }
    expect(count('E1')).toBe(2);
    // The storm heals: the very next call succeeds with the token E1 handed back.
    emulator.clearFaults();
    expect(await c.verifyUserToken(user())).toEqual(PLAYER);
    // No clock moves: a passing refusal is reissued and retried at once, not answered 500 for a minute.
    for (const code of [40101, 40103]) {
      emulator.injectFault({ endpoint: 'E2', type: 'code', code, count: 1 });
      const { calls } = recordEvents(c);
      expect(await c.verifyUserToken(user())).toEqual(PLAYER);
      expect(calls.at(-1)).toMatchObject({ endpoint: 'E2', outcome: 'success', attempts: 2, reissued: true });
    }
    expect(count('E1')).toBe(4);
  });

  it('gets a new token for a real expiry (40103) of the token a 40101 storm refused, and serves 200 at once', async () => {
    // The provider's own clock stands still, so it keeps trusting the token the platform lets expire.
    const now = 0;
    const short = new PlatformClient(configFor(emulator, { clientId: 'short-client', clientSecret: 'short-secret-value', clock: { now: () => now } }));
    try {
      const refused = await short.provider.getToken();
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: -1 });
      for (let i = 0; i < 3; i += 1) {
        expectPlatformError(await rejectionOf(() => short.verifyUserToken(user())), 'configuration', 500);
      }
      const issuedDuringStorm = count('E1');
      // The storm heals with no call in between; meanwhile the refused token really expired.
      emulator.clearFaults();
      emulator.advanceClock(1_000_000);
      expect(await short.verifyUserToken(user())).toEqual(PLAYER);
      const [expired, served] = emulator.requests({ endpoint: 'E2' }).slice(-2);
      expect([expired?.code, served?.code, count('E1')]).toEqual([40103, 0, issuedDuringStorm + 1]);
      expect(await short.provider.getToken()).not.toBe(refused);
    } finally {
      await short.close();
    }
  });

  it('still backs off a 40103 storm: a fresh token refused as expired again is not reissued for every call', async () => {
    await c.provider.getToken();
    emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40103, count: -1 });
    for (let i = 0; i < 4; i += 1) {
      expectPlatformError(await rejectionOf(() => c.verifyUserToken(user())), 'configuration', 500);
    }
    expect(count('E1')).toBe(2);
  });
});
