import { PlatformClient } from '../../lib/index.js';
import { CONFIGURATION_BACKOFF_MS } from '../../lib/platform-call/index.js';
import type { CircuitEvent } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

// Durations run on a monotonic clock; only API-token lifetimes are wall-clock times.

const HOUR_MS = 3_600_000;
const PLAYER = { memberNo: DEMO.admin, guid: DEMO.adminGuid };

describe('a backward step of the wall clock', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  /** How far the client's wall clock has been stepped back. */
  let stepBack = 0;
  /** Monotonic time: moves with the emulator's clock, never with a step. */
  let elapsed = 0;
  const advance = (ms: number): void => {
    emulator.advanceClock(ms);
    elapsed += ms;
  };
  const count = (endpoint: 'E1' | 'E2'): number => emulator.requests({ endpoint }).length;
  const user = (): string => emulator.login(DEMO.admin, DEMO.gameId).access_token;
  beforeEach(async () => {
    emulator = await startTestEmulator({ clock: 'frozen' });
    stepBack = 0;
    elapsed = 1;
    client = new PlatformClient(configFor(emulator, {
      clock: { now: () => emulator.now() - stepBack, monotonicNow: () => elapsed },
      retries: 0,
      cache: { ttlMs: 1000 },
      circuitBreaker: { failureThreshold: 2, openMs: 1000 },
    }));
  });
  afterEach(async () => {
    await client.close();
    await emulator.close();
  });

  it('leaves the result cache TTL, the circuit breaker and the refusal back-off unaffected', async () => {
    // Cache: a 1 s entry, the wall clock stepped back an hour, then 1 s passes: it has expired.
    const token = user();
    expect(await client.verifyUserToken(token)).toEqual(PLAYER);
    stepBack += HOUR_MS;
    advance(999);
    expect(await client.verifyUserToken(token)).toEqual(PLAYER);
    expect(count('E2')).toBe(1);
    advance(2);
    expect(await client.verifyUserToken(token)).toEqual(PLAYER);
    expect(count('E2')).toBe(2);

    // Breaker: opened, the wall clock stepped back an hour, then its 1 s open period passes: a probe goes through.
    const circuits: CircuitEvent[] = [];
    client.on('circuit', (event) => circuits.push(event));
    emulator.injectFault({ endpoint: 'E2', type: 'drop', count: -1 });
    for (let i = 0; i < 2; i += 1) expectPlatformError(await rejectionOf(() => client.verifyUserToken(user())), 'platform_unavailable', 503);
    expect(circuits.map((e) => e.state)).toEqual(['open']);
    emulator.clearFaults();
    stepBack += HOUR_MS;
    advance(1000);
    expect(await client.verifyUserToken(user())).toEqual(PLAYER);
    expect(circuits.map((e) => e.state)).toEqual(['open', 'half-open', 'closed']);

    // Back-off: E1 is not asked for a refused token for a minute; stepped back an hour, a minute later it is.
    emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: -1 });
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(user())), 'configuration', 500);
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(user())), 'configuration', 500);
    const e1 = count('E1');
    stepBack += HOUR_MS;
    advance(CONFIGURATION_BACKOFF_MS);
    expectPlatformError(await rejectionOf(() => client.verifyUserToken(user())), 'configuration', 500);
    expect(count('E1')).toBe(e1 + 1);
  });

  it('uses the process monotonic clock when no clock is injected', async () => {
    const { resolvePlatformConfig } = await import('../../lib/config/index.js');
    const { monotonicFor, processMonotonic } = await import('../../lib/time/monotonic.js');
    const config = resolvePlatformConfig({ baseUrl: emulator.url, clientId: 'c', clientSecret: 's', gameId: 'g' });
    expect(config.monotonic).toBe(processMonotonic);
    // An injected clock: followed forward only.
    let wall = 10_000;
    const mono = monotonicFor({ now: () => wall }, { now: () => 0 });
    expect(monotonicFor({ now: () => wall, monotonicNow: () => 42 }, { now: () => 0 }).now()).toBe(42);
    const start = mono.now();
    wall -= HOUR_MS;
    expect(mono.now()).toBe(start);
    wall += 500;
    expect(mono.now()).toBe(start + 500);
  });
});
