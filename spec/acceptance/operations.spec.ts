import { Registry } from 'prom-client';
import type { HealthExtras } from '../../lib/index.js';
import { DEMO, listenOnLoopback, startAppHarness } from '../support/app-harness.js';
import type { AppHarness, AppHarnessOptions } from '../support/app-harness.js';

// /readyz in each state, /metrics after a scripted mix of outcomes.

async function withApp(options: AppHarnessOptions, fn: (h: AppHarness, url: string) => Promise<void>): Promise<void> {
  const harness = await startAppHarness(options);
  const server = await listenOnLoopback(harness.app);
  try {
    await fn(harness, server.url);
  } finally {
    await server.close();
    await harness.close();
  }
}

const get = async (url: string, token?: string): Promise<{ status: number; body: string; json: () => Record<string, unknown> }> => {
  const res = await fetch(url, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } });
  const body = await res.text();
  return { status: res.status, body, json: () => JSON.parse(body) };
};

describe('GET /readyz', () => {
  it('answers 200 ready once an API token is held, with no secret in the body', async () => {
    await withApp({}, async (h, url) => {
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'not_ready', reasons: ['no_api_token'] });
      await h.client.ready();
      const ready = await get(`${url}/readyz`);
      expect(ready.status).toBe(200);
      expect(ready.json()).toEqual({ status: 'ready', apiToken: { held: true, expiresInS: expect.any(Number) }, circuit: 'closed', inFlight: 0, queued: 0, liveConnections: 0 });
      expect(ready.body).not.toContain(await h.client.provider.getToken());
      expect(ready.body).not.toContain(DEMO.clientSecret);
      expect((await get(`${url}/healthz`)).status).toBe(200);
    });
  });

  it('answers 503 credentials_refused when the platform refuses our credentials', async () => {
    await withApp({ client: { clientSecret: 'not-the-secret' } }, async (h, url) => {
      await expect(h.client.ready()).rejects.toMatchObject({ kind: 'configuration', code: 40105 });
      const res = await get(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', reasons: ['credentials_refused'], apiToken: { held: false } });
      expect(res.body).not.toContain('not-the-secret');
    });
  });

  it('answers 503 platform_down while the circuit is open', async () => {
    const client = { retries: 0, timeoutMs: 500, totalTimeoutMs: 1000, circuitBreaker: { failureThreshold: 2, openMs: 60_000 } };
    await withApp({ client }, async (h, url) => {
      await h.client.ready();
      h.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: 2 });
      expect((await get(`${url}/api/me`, h.token(DEMO.player))).status).toBe(503);
      expect((await get(`${url}/api/me`, h.token(DEMO.player))).status).toBe(503);
      const res = await get(`${url}/readyz`);
      expect(res.status).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', reasons: ['platform_down'], circuit: 'open' });
    });
  });

  it('answers 503 store_down when the client\'s shared verification store reports itself down', async () => {
    let state: 'ready' | 'down' = 'ready';
    const entries = new Map<string, unknown>();
    // A shared store (as a Redis-backed one would be) that tells its connection state.
    const store = {
      shared: true,
      get: async (key: string) => entries.get(key),
      set: async (key: string, value: unknown) => void entries.set(key, value),
      delete: async (key: string) => entries.delete(key),
      health: () => ({ state }),
    };
    await withApp({ client: { store } as object }, async (h, url) => {
      await h.client.ready();
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', store: 'ok' });
      state = 'down';
      const res = await get(`${url}/readyz`);
      expect([res.status, res.json().reasons, res.json().store]).toEqual([503, ['store_down'], 'down']);
    });
  });

  it('answers 503 store_down when the app reports its store down, and shutting_down after SIGTERM', async () => {
    let extras: HealthExtras = { store: 'ok', liveConnections: 3 };
    let stopping = false;
    await withApp({ app: { healthExtras: () => extras, isShuttingDown: () => stopping } }, async (h, url) => {
      await h.client.ready();
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', store: 'ok', liveConnections: 3 });
      extras = { store: 'down' };
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'not_ready', reasons: ['store_down'], store: 'down' });
      extras = {};
      stopping = true;
      const res = await get(`${url}/readyz`);
      expect([res.status, res.json().reasons]).toEqual([503, ['shutting_down']]);
    });
  });
});

describe('GET /metrics', () => {
  it('counts a scripted mix of outcomes exactly', async () => {
    const metrics = new Registry();
    await withApp({ client: { retries: 0, cache: { ttlMs: 60_000 } }, app: { metrics } }, async (h, url) => {
      await h.client.ready();
      const player = h.token(DEMO.player);
      expect((await get(`${url}/api/me`, player)).status).toBe(200);
      expect((await get(`${url}/api/me`, player)).status).toBe(200); // cache hit
      expect((await get(`${url}/api/me`, h.token(DEMO.admin))).status).toBe(200);
      expect((await get(`${url}/api/me`, 'well-formed-but-unknown-token')).status).toBe(401);
      expect((await get(`${url}/api/me`, h.token(DEMO.unregistered))).status).toBe(403);
      h.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 1 });
      expect((await get(`${url}/api/me`, h.token(DEMO.noGuid))).status).toBe(503);
      const res = await get(`${url}/metrics`);
      expect(res.status).toBe(200);
      const lines = res.body.split('\n');
      const value = (prefix: string): string | undefined => lines.find((l) => l.startsWith(prefix))?.slice(prefix.length).trim();
      expect(value('game_platform_verifications_total{kind="E2",outcome="ok",cached="false"}')).toBe('2');
      expect(value('game_platform_verifications_total{kind="E2",outcome="ok",cached="true"}')).toBe('1');
      expect(value('game_platform_verifications_total{kind="E2",outcome="invalid_token",cached="false"}')).toBe('1');
      expect(value('game_platform_verifications_total{kind="E2",outcome="device_not_registered",cached="false"}')).toBe('1');
      expect(value('game_platform_verifications_total{kind="E2",outcome="unavailable",cached="false"}')).toBe('1');
      expect(value('game_platform_cache_lookups_total{kind="E2",result="hit"}')).toBe('1');
      expect(value('game_platform_cache_lookups_total{kind="E2",result="miss"}')).toBe('5');
      expect(value('game_platform_platform_call_duration_seconds_count{endpoint="E2",outcome="ok"}')).toBe('2');
      expect(value('game_platform_platform_call_duration_seconds_count{endpoint="E2",outcome="refused"}')).toBe('2');
      expect(value('game_platform_platform_call_duration_seconds_count{endpoint="E2",outcome="fault"}')).toBe('1');
      expect(value('game_platform_circuit_state')).toBe('0');
      expect(Number(value('game_platform_api_token_expires_in_seconds'))).toBeGreaterThan(29 * 86_400);
      expect(value('game_platform_live_connections')).toBe('0');
      expect(res.body).not.toContain(player);
      expect(res.body).not.toContain(await h.client.provider.getToken());
    });
  });
});
