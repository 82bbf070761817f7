import { once } from 'node:events';
import { ApiTokenProvider } from '../../lib/index.js';
import { DEFAULT_API_TOKEN_LIFETIME_MS, RENEWAL_RETRY_MAX_MS, RENEWAL_RETRY_MS } from '../../lib/platform-call/index.js';
import { renewalRetryDelayMs } from '../../lib/platform-call/token-lifetime.js';
import type { TokenEvent } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { configFor, startTestEmulator } from '../support/client-harness.js';
import { startRawServer, sendJsonText } from '../support/client-raw-server.js';

// The `short-client` API token lives 1000 s; the emulator clock is frozen.
const LIFETIME_MS = 1_000_000;

describe('API token renewal', () => {
  // A fresh emulator per test: its held tokens and clock must not leak between tests.
  const fx = { emulator: undefined as unknown as Emulator };
  let provider: ApiTokenProvider;
  const events: TokenEvent[] = [];
  const e1Count = (): number => fx.emulator.requests({ endpoint: 'E1' }).length;
  beforeEach(async () => {
    fx.emulator = await startTestEmulator({ clock: 'frozen' });
    events.length = 0;
    // Budgets a busy machine cannot outlast: renewal is driven by the emulator's clock, never by a timeout.
    provider = new ApiTokenProvider(configFor(fx.emulator, { clientId: 'short-client', clientSecret: 'short-secret-value', retries: 0, timeoutMs: 5000, totalTimeoutMs: 10_000 }));
    provider.on('token', (event) => events.push(event));
  });
  afterEach(async () => {
    provider.close();
    await fx.emulator.close();
  });

  it('uses expires_in from response_data for the expiry and renews just past the 30 % reuse point', async () => {
    const issuedAt = fx.emulator.now();
    await provider.getToken();
    expect(events[0]?.expiresAt).toBe(issuedAt + LIFETIME_MS);
    expect(provider.state).toMatchObject({ expiresAt: issuedAt + LIFETIME_MS, renewAt: issuedAt + 0.72 * LIFETIME_MS });
  });

  it('keeps the held token while E1 would hand it back (30 % or more of its lifetime left)', async () => {
    const first = await provider.getToken();
    fx.emulator.advanceClock(0.71 * LIFETIME_MS);
    expect(await provider.getToken()).toBe(first);
    expect(e1Count()).toBe(1);
  });

  it('past the renewal point serves the held token at once and renews once in the background', async () => {
    const first = await provider.getToken();
    fx.emulator.advanceClock(0.73 * LIFETIME_MS);
    fx.emulator.injectFault({ endpoint: 'E1', type: 'latency', latencyMs: 100, count: 1 });
    const renewed = once(provider, 'token');
    const served = await Promise.all(Array.from({ length: 50 }, () => provider.getToken()));
    expect(new Set(served)).toEqual(new Set([first]));
    expect(events).toHaveLength(1);
    await renewed;
    const second = await provider.getToken();
    expect(second).not.toBe(first);
    expect(events.map((e) => e.type)).toEqual(['issued', 'renewed']);
    expect(e1Count()).toBe(2);
  });

  it('keeps serving the held token when a background renewal fails, and tries again later', async () => {
    const first = await provider.getToken();
    fx.emulator.advanceClock(0.73 * LIFETIME_MS);
    fx.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 1 });
    const failed = once(provider, 'token');
    expect(await provider.getToken()).toBe(first);
    await failed;
    expect(events.map((e) => e.type)).toEqual(['issued', 'failed']);
    expect(await provider.getToken()).toBe(first);
    expect(e1Count()).toBe(2);
    fx.emulator.advanceClock(RENEWAL_RETRY_MS);
    const renewed = once(provider, 'token');
    expect(await provider.getToken()).toBe(first);
    await renewed;
    expect(await provider.getToken()).not.toBe(first);
    expect(e1Count()).toBe(3);
  });

  it('waits for E1 once the held token has expired', async () => {
    const first = await provider.getToken();
    fx.emulator.advanceClock(LIFETIME_MS);
    const second = await provider.getToken();
    expect(second).not.toBe(first);
    expect(events.map((e) => e.type)).toEqual(['issued', 'renewed']);
  });
});

describe('API token lifetime without the emulator', () => {
  it('assumes 30 days without expires_in, keeps a lifetime above 2^31-1 ms, and handles a handed-back token', async () => {
    let now = 1_000_000;
    let expiresIn: number | undefined;
    const server = await startRawServer((_req, res) => {
      const data = { access_token: 'opaque-token-1', ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) };
      sendJsonText(res, 200, JSON.stringify({ code: 0, message: 'success', response_data: data }));
    });
    const provider = new ApiTokenProvider({
      baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g', clock: { now: () => now }, retries: 0,
    });
    const types: string[] = [];
    provider.on('token', (event) => types.push(event.type));
    try {
      await provider.getToken();
      expect(provider.state.expiresAt).toBe(1_000_000 + DEFAULT_API_TOKEN_LIFETIME_MS);
      expect(DEFAULT_API_TOKEN_LIFETIME_MS).toBeGreaterThan(2 ** 31 - 1);
      await new Promise((resolve) => setImmediate(resolve));
      await provider.getToken();
      expect(server.requests).toHaveLength(1);
      // Past the renewal point E1 hands the same token back with what remains of its lifetime.
      now += 0.75 * DEFAULT_API_TOKEN_LIFETIME_MS;
      expiresIn = 3600;
      const reused = once(provider, 'token');
      await provider.getToken();
      await reused;
      expect(types).toEqual(['issued', 'reused']);
      expect(provider.state.expiresAt).toBe(now + 3_600_000);
      await provider.getToken();
      expect(server.requests).toHaveLength(2);
      // Each further hand-back doubles the wait: 10 s, then 20 s, ... (no E1 call every 10 s for weeks).
      now += RENEWAL_RETRY_MS;
      const again = once(provider, 'token');
      await provider.getToken();
      await again;
      expect(server.requests).toHaveLength(3);
      now += RENEWAL_RETRY_MS;
      await provider.getToken();
      expect(server.requests).toHaveLength(3);
      now += RENEWAL_RETRY_MS;
      const third = once(provider, 'token');
      await provider.getToken();
      await third;
      expect(server.requests).toHaveLength(4);
      expect(types).toEqual(['issued', 'reused', 'reused', 'reused']);
    } finally {
      provider.close();
      await server.close();
    }
  });
});

describe('renewalRetryDelayMs', () => {
  it('doubles from RENEWAL_RETRY_MS and stops at RENEWAL_RETRY_MAX_MS', () => {
    expect([1, 2, 3, 4].map(renewalRetryDelayMs)).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(renewalRetryDelayMs(60)).toBe(RENEWAL_RETRY_MAX_MS);
    expect(RENEWAL_RETRY_MAX_MS).toBeLessThan(2 ** 31 - 1);
  });
});
