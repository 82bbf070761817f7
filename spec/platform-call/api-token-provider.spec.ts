import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { ApiTokenProvider, fingerprint } from '../../lib/index.js';
import type { PlatformConfig, TokenEvent } from '../../lib/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { until } from '../support/until.js';

describe('ApiTokenProvider (E1)', () => {
  const fx = useEmulator({ seed: TEST_SEED });
  const open: ApiTokenProvider[] = [];
  const provider = (overrides: Partial<PlatformConfig> = {}): ApiTokenProvider => {
    const p = new ApiTokenProvider(configFor(fx.emulator, overrides));
    open.push(p);
    return p;
  };
  const e1 = () => fx.emulator.requests({ endpoint: 'E1' });
  afterEach(() => {
    for (const p of open.splice(0)) p.close();
  });

  it('makes exactly one E1 call for 200 concurrent first callers', async () => {
    const p = provider();
    const events: TokenEvent[] = [];
    p.on('token', (event) => events.push(event));
    const tokens = await Promise.all(Array.from({ length: 200 }, () => p.getToken()));
    expect(new Set(tokens).size).toBe(1);
    expect(e1()).toHaveLength(1);
    expect(events.map((event) => event.type)).toEqual(['issued']);
    expect(events[0]?.fingerprint).toBe(fingerprint(tokens[0] ?? ''));
    expect(JSON.stringify(events)).not.toContain(tokens[0]);
  });

  it('serves the held token afterwards without calling E1', async () => {
    const p = provider();
    const first = await p.getToken();
    expect(await p.getToken()).toBe(first);
    expect(e1()).toHaveLength(1);
  });

  it('sends caller-id, the client_id and instance_id only when configured', async () => {
    await provider().getToken();
    await provider({ instanceId: 'server-7' }).getToken();
    const [plain, withInstance] = e1();
    expect([plain?.callerId, plain?.clientId, plain?.instanceId]).toEqual(['demo-game_SERVER', 'demo-client', undefined]);
    expect(plain?.headers['content-type']).toBe('application/json');
    expect([withInstance?.instanceId, withInstance?.callerId]).toEqual(['server-7', 'demo-game_SERVER']);
  });

  it('never caches a failure', async () => {
    const p = provider({ retries: 0 });
    fx.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 1 });
    expectPlatformError(await rejectionOf(() => p.getToken()), 'platform_unavailable', 503);
    expect(await p.getToken()).toEqual(expect.any(String));
    expect(e1()).toHaveLength(2);
  });

  it('shares one failing call among concurrent callers', async () => {
    const p = provider({ retries: 0 });
    fx.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 5 });
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => p.getToken()));
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(e1()).toHaveLength(1);
  });

  it('stops waiting at the caller\'s deadline while the shared call goes on', async () => {
    const p = provider();
    // E1 answers only once released: the caller's deadline is what ends its wait.
    fx.emulator.injectFault({ endpoint: 'E1', type: 'hold', count: 1 });
    const shared = p.getToken();
    const error = await rejectionOf(() => p.getToken({ deadline: performance.now() + 50 }));
    expect(expectPlatformError(error, 'platform_unavailable', 503).message).toContain('did not answer in time on E1');
    await until(() => fx.emulator.held() === 1, 15_000, 'the shared E1 call');
    expect(fx.emulator.releaseHeld()).toBe(1);
    expect(await shared).toEqual(expect.any(String));
    expect(e1()).toHaveLength(1);
  });

  it('emits failed events without any token and logs nothing secret', async () => {
    const p = provider({ retries: 0 });
    fx.emulator.injectFault({ endpoint: 'E1', type: 'garbage', count: 1 });
    const failed = once(p, 'token');
    await rejectionOf(() => p.getToken());
    const [event] = (await failed) as [TokenEvent];
    expect(event).toEqual({ type: 'failed', durationMs: expect.any(Number), kind: 'platform_unavailable' });
  });
});
