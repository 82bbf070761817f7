import type { PlatformClient } from '../../lib/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, clientsOn, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { until } from '../support/until.js';

type Fixture = ReturnType<typeof useEmulator>;

/** Starts a verification the emulator holds for a while, and waits until the platform has it. */
async function inFlight(fx: Fixture, c: PlatformClient, token: string): Promise<{ pending: Promise<unknown> }> {
  fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 150, count: 1 });
  const before = fx.emulator.requests({ endpoint: 'E2' }).length;
  const pending = c.verifyUserToken(token);
  await until(() => fx.emulator.requests({ endpoint: 'E2' }).length > before, 15_000, 'the E2 call');
  return { pending };
}

/** A verification asked after the forget (the player logged out meanwhile) asks the platform itself. */
async function expectNoJoinAfterForget(fx: Fixture, c: PlatformClient): Promise<void> {
  const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
  const { pending } = await inFlight(fx, c, token);
  await c.forgetUserToken(token);
  fx.emulator.logout(token);
  const after = rejectionOf(() => c.verifyUserToken(token));
  await pending.catch(() => undefined);
  expectPlatformError(await after, 'invalid_token');
  expect(fx.emulator.requests({ endpoint: 'E2' }).length).toBe(2);
}

// A forget (the player logged out) must win over a verification already in flight.
describe('forgetUserToken during a verification in flight', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const client = clientsOn(() => fx.emulator, { cache: { ttlMs: 30_000 }, invalidTokenCacheMs: 0, timeoutMs: 2000, totalTimeoutMs: 4000 });
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

  // The emulator judges the token when its delayed answer leaves, so the platform keeps accepting it
  // here: what counts is whether the client asks the platform again.
  it('keeps the verification that began before the forget out of the cache', async () => {
    const c = client();
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    const { pending } = await inFlight(fx, c, token);
    await c.forgetUserToken(token);
    // It asked before the logout: its own caller keeps the answer.
    await expect(pending).resolves.toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(2);
  });

  it('never lets a verification asked after the forget join the one before it', async () => {
    await expectNoJoinAfterForget(fx, client());
  });

  it('still caches when nothing was forgotten', async () => {
    const c = client();
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await (await inFlight(fx, c, token)).pending;
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(1);
  });
});

// Without a cache, a verification in flight is keyed by the token itself (no digest is
// computed): a forget, and a revocation, still detach it from later callers.
describe('forgetUserToken and revokeUserToken during a verification in flight, without a cache', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const client = clientsOn(() => fx.emulator, { invalidTokenCacheMs: 0, timeoutMs: 2000, totalTimeoutMs: 4000 });

  it('never lets a verification asked after the forget join the one before it', async () => {
    await expectNoJoinAfterForget(fx, client());
  });

  it('refuses, after a revocation, both the caller in flight and a later one, with one E2 call', async () => {
    const c = client();
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    const { pending } = await inFlight(fx, c, token);
    await c.revokeUserToken(token);
    const after = await rejectionOf(() => c.verifyUserToken(token));
    expectPlatformError(await rejectionOf(() => pending), 'invalid_token');
    expectPlatformError(after, 'invalid_token');
    expect(fx.emulator.requests({ endpoint: 'E2' }).length).toBe(1);
  });
});
