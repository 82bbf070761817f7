import { performance } from 'node:perf_hooks';
import { PlatformHttp } from '../../lib/platform-call/index.js';
import type { CallStats, PlatformRequest } from '../../lib/platform-call/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

const E1: PlatformRequest = {
  endpoint: 'E1',
  method: 'POST',
  path: '/auth/v5/server_token',
  headers: { 'Content-Type': 'application/json', 'caller-id': 'demo-game_SERVER' },
  body: { client_id: DEMO.clientId, client_secret: DEMO.clientSecret, service_id: DEMO.gameId },
};

describe('PlatformHttp against the emulator', () => {
  const fx = useEmulator({ seed: TEST_SEED });
  const open: PlatformHttp[] = [];
  const layer = (overrides: Partial<PlatformConfig> = {}): PlatformHttp => {
    const http = new PlatformHttp(configFor(fx.emulator, overrides));
    open.push(http);
    return http;
  };
  const e1Count = (): number => fx.emulator.requests({ endpoint: 'E1' }).length;
  afterEach(() => {
    for (const http of open.splice(0)) void http.close();
  });

  it('retries a 5xx HTML answer at most `retries` times, then fails with 503 naming the status', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 10 });
    const stats: CallStats = { attempts: 0 };
    const error = expectPlatformError(await rejectionOf(() => layer({ retries: 2 }).request(E1, stats)), 'platform_unavailable', 503);
    expect(error.message).toContain('HTTP 502');
    expect([e1Count(), stats.attempts]).toEqual([3, 3]);
  });

  it('makes a single attempt with retries: 0', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', status: 503, count: 10 });
    expectPlatformError(await rejectionOf(() => layer({ retries: 0 }).request(E1)), 'platform_unavailable');
    expect(e1Count()).toBe(1);
  });

  it('retries code 50000 (even on a POST) and returns the later success', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'code', code: 50000, count: 1 });
    const stats: CallStats = { attempts: 0 };
    const reply = await layer().request(E1, stats);
    expect([reply.code, e1Count(), stats.attempts]).toEqual([0, 2, 2]);
  });

  it('hands back a persisting 50000 after the retries', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'code', code: 50000, status: 500, count: 10 });
    const reply = await layer({ retries: 1 }).request(E1);
    expect([reply.code, reply.status, e1Count()]).toEqual([50000, 500, 2]);
  });

  it('lets any other code decide at once, whatever the HTTP status', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'code', code: 40105, status: 500, count: 10 });
    const reply = await layer().request(E1);
    expect([reply.code, reply.status, e1Count()]).toEqual([40105, 500, 1]);
  });

  it('retries a dropped connection', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'drop', count: 1 });
    expect((await layer({ retries: 1 }).request(E1)).code).toBe(0);
    expect(e1Count()).toBe(2);
  });

  it('fails with a network 503 when every attempt is dropped, within the retry bound', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'drop', count: 20 });
    const error = expectPlatformError(await rejectionOf(() => layer({ retries: 2 }).request(E1)), 'platform_unavailable', 503);
    expect(error.message).toContain('could not be reached');
    // retries + 1, plus at most the one extra retry for a reset keep-alive socket.
    expect(e1Count()).toBeGreaterThanOrEqual(3);
    expect(e1Count()).toBeLessThanOrEqual(4);
  });

  it.each(['text', 'html', 'json-without-code', 'truncated-json', 'empty'] as const)(
    'retries a garbage body (%s), then fails with a bad-body 503',
    async (variant) => {
      fx.emulator.injectFault({ endpoint: 'E1', type: 'garbage', variant, count: 10 });
      const error = expectPlatformError(await rejectionOf(() => layer({ retries: 1 }).request(E1)), 'platform_unavailable', 503);
      expect(error.message).toContain('not the expected JSON');
      expect(e1Count()).toBe(2);
    },
  );

  it('ends a hung call within the total budget, however many retries are allowed', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'hang', count: 20 });
    const started = performance.now();
    const error = await rejectionOf(() => layer({ timeoutMs: 100, totalTimeoutMs: 250, retries: 10 }).request(E1));
    const elapsed = performance.now() - started;
    expect(expectPlatformError(error, 'platform_unavailable', 503).message).toContain('did not answer in time');
    expect(elapsed).toBeGreaterThanOrEqual(240);
    expect(e1Count()).toBeLessThanOrEqual(3);
  });

  it('treats an answer slower than timeoutMs as a timeout and retries it', async () => {
    // The first answer is held until the test releases it: only a retry can bring the answer.
    fx.emulator.injectFault({ endpoint: 'E1', type: 'hold', count: 1 });
    expect((await layer({ timeoutMs: 1000, totalTimeoutMs: 10_000 }).request(E1)).code).toBe(0);
    expect(e1Count()).toBe(2);
    expect(fx.emulator.requests({ endpoint: 'E1' }).map((e) => e.fault)).toEqual(['hold', undefined]);
    fx.emulator.releaseHeld();
  });

  it('retries once when a reused keep-alive socket is reset, even with retries: 0 (the keep-alive reset race)', async () => {
    const http = layer({ retries: 0 });
    expect((await http.request(E1)).code).toBe(0);
    fx.emulator.injectFault({ endpoint: 'E1', type: 'reset-reused', count: 1 });
    expect((await http.request(E1)).code).toBe(0);
    const log = fx.emulator.requests({ endpoint: 'E1' });
    expect(log.map((entry) => entry.fault ?? null)).toEqual([null, 'reset-reused', null]);
    expect(fx.emulator.pendingFaults()).toEqual([]);
  });

  it('fails fast with 503 "overloaded" beyond maxConcurrentCalls and the queue', async () => {
    fx.emulator.injectFault({ endpoint: 'E1', type: 'latency', latencyMs: 150, count: 1 });
    // Timeouts far above the injected latency: a busy machine must not turn the slow answer into a retry (a third E1 call).
    const http = layer({ maxConcurrentCalls: 1, maxQueuedCalls: 1, timeoutMs: 10_000, totalTimeoutMs: 20_000 });
    const calls = [http.request(E1), http.request(E1), http.request(E1)].map((p) => p.then(() => 'ok', (e: unknown) => e));
    const [first, second, third] = await Promise.all(calls);
    expect([first, second]).toEqual(['ok', 'ok']);
    expect(expectPlatformError(third, 'platform_unavailable', 503).message).toContain('too many calls in flight');
    expect(e1Count()).toBe(2);
  });

  it('reports an unreachable platform as a network 503', async () => {
    const http = new PlatformHttp(configFor(fx.emulator, { baseUrl: 'http://127.0.0.1:9', retries: 1 }));
    open.push(http);
    const error = expectPlatformError(await rejectionOf(() => http.request(E1)), 'platform_unavailable', 503);
    expect(error.message).toContain('ECONNREFUSED');
  });
});
