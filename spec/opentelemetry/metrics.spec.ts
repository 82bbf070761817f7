import { createNoopMeter } from '@opentelemetry/api';
import type { Attributes, Counter, Histogram, Meter, MeterProvider } from '@opentelemetry/api';
import { PlatformClient } from '../../lib/index.js';
import { instrumentGamePlatform } from '../../lib/opentelemetry/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';

// @opentelemetry/sdk-metrics is not a dev dependency: a meter provider on the API's no-op meter
// keeps every recorded value with its attributes (what an SDK reader would aggregate).
type Recorded = { instrument: string; value: number; attributes: Attributes };

function recordingMeterProvider(): MeterProvider & { recorded: Recorded[] } {
  const recorded: Recorded[] = [];
  const noop = createNoopMeter();
  const record = (instrument: string) => (value: number, attributes: Attributes = {}): void => void recorded.push({ instrument, value, attributes });
  const meter: Meter = Object.assign(Object.create(noop) as Meter, {
    createHistogram: (name: string): Histogram => ({ record: record(name) }),
    createCounter: (name: string): Counter => ({ add: record(name) }),
  });
  return { recorded, getMeter: () => meter };
}

describe('OpenTelemetry recipe: metrics', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(() => emulator.close());

  it('records one duration per platform attempt and one verification per outcome: a success, a 40000, a cache hit', async () => {
    const meterProvider = recordingMeterProvider();
    const stop = instrumentGamePlatform({ meterProvider });
    const client = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 }, retries: 0 }));
    const started = performance.now();
    let tookMs: number;
    try {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await client.verifyUserToken(token);
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: 1 });
      await rejectionOf(() => client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token));
      await client.verifyUserToken(token);
      tookMs = performance.now() - started;
    } finally {
      stop();
      await client.close();
    }
    const { recorded } = meterProvider;
    expect(recorded.filter((r) => r.instrument === 'game_platform.verifications')).toEqual([
      { instrument: 'game_platform.verifications', value: 1, attributes: { 'game_platform.outcome': 'ok', 'game_platform.cached': false } },
      { instrument: 'game_platform.verifications', value: 1, attributes: { 'game_platform.outcome': 'invalid_token', 'game_platform.cached': false } },
      { instrument: 'game_platform.verifications', value: 1, attributes: { 'game_platform.outcome': 'ok', 'game_platform.cached': true } },
    ]);
    const durations = recorded.filter((r) => r.instrument === 'http.client.request.duration');
    const common = { 'server.address': '127.0.0.1', 'http.response.status_code': 200 };
    expect(durations.map((r) => r.attributes)).toEqual([
      { ...common, 'http.request.method': 'POST', 'game_platform.endpoint': 'E1' },
      { ...common, 'http.request.method': 'POST', 'game_platform.endpoint': 'E2' },
      { ...common, 'http.request.method': 'POST', 'game_platform.endpoint': 'E2' },
    ]);
    // Seconds, not ms: each attempt fits in the time the three verifications took, in seconds.
    for (const { value } of durations) expect(value).toBeGreaterThan(0);
    for (const { value } of durations) expect(value).toBeLessThanOrEqual(tookMs / 1000);
    expect(recorded).toHaveLength(6);
  });
});
