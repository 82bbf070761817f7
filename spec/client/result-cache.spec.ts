import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, clientsOn, recordEvents, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('the opt-in result cache', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  // Timeouts far above any answer time: a slow answer on a busy machine must not become a retry (an extra E2 call).
  const client = clientsOn(() => fx.emulator, { timeoutMs: 10_000, totalTimeoutMs: 20_000 });
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;
  const login = (memberNo: string = DEMO.admin): string => fx.emulator.login(memberNo, DEMO.gameId).access_token;

  it('is off by default: every verification asks the platform', async () => {
    const c = client();
    const token = login();
    await c.verifyUserToken(token);
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(2);
  });

  it('serves a verified token from the cache until its TTL passes on the injected clock', async () => {
    const c = client({ cache: { ttlMs: 30_000 } });
    const { calls } = recordEvents(c);
    const token = login();
    const first = await c.verifyUserToken(token);
    fx.emulator.advanceClock(29_000);
    expect(await c.verifyUserToken(token)).toEqual(first);
    expect(e2Count()).toBe(1);
    expect(calls.at(-1)).toEqual({ endpoint: 'E2', outcome: 'success', durationMs: 0, attempts: 0, cached: true });
    fx.emulator.advanceClock(2000);
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(2);
  });

  it('never caches a failure', async () => {
    // The brief memory of refused tokens is off here: this is about the result cache.
    const c = client({ cache: { ttlMs: 30_000 }, invalidTokenCacheMs: 0 });
    const token = login();
    fx.emulator.logout(token);
    for (let i = 0; i < 2; i += 1) expectPlatformError(await rejectionOf(() => c.verifyUserToken(token)), 'invalid_token');
    expect(e2Count()).toBe(2);
  });

  it('evicts on forgetUserToken() and beyond maxEntries', async () => {
    const c = client({ cache: { ttlMs: 30_000, maxEntries: 2 } });
    const [a, b, d] = [login(), login(DEMO.noGuid), login()];
    for (const token of [a, b, a]) await c.verifyUserToken(token);
    expect(e2Count()).toBe(2);
    await c.forgetUserToken(a);
    await c.verifyUserToken(a);
    expect(e2Count()).toBe(3);
    await c.verifyUserToken(d);
    await c.verifyUserToken(b);
    expect(e2Count()).toBe(5);
  });

  it('hands out copies, so a caller cannot alter what is cached', async () => {
    const c = client({ cache: { ttlMs: 30_000 } });
    const token = login();
    const user = await c.verifyUserToken(token);
    user.memberNo = 'tampered';
    expect((await c.verifyUserToken(token)).memberNo).toBe(DEMO.admin);
  });
});
