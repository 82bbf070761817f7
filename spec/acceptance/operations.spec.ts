import { Gauge, Registry } from 'prom-client';
import { loadMetricsSettings } from '../../example-app/metrics-config.js';
import { metricsApp } from '../../example-app/routes/metrics.js';
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
    const client = { retries: 0, circuitBreaker: { failureThreshold: 2, openMs: 60_000 } };
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

  it('stays ready (200 degraded, naming the store) when the client\'s shared verification store reports itself down', async () => {
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
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({ status: 'degraded', degraded: ['store'], store: 'down', circuit: 'closed' });
      expect(h.client.health()).toMatchObject({ store: 'down', degraded: ['store'] });
      state = 'ready';
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', store: 'ok' });
      expect((await get(`${url}/readyz`)).json().degraded).toBeUndefined();
    });
  });

  it('answers 200 degraded when the app reports its store down, and 503 shutting_down after SIGTERM (naming what is degraded too)', async () => {
    let extras: HealthExtras = { store: 'ok', liveConnections: 3 };
    let stopping = false;
    await withApp({ app: { healthExtras: () => extras, isShuttingDown: () => stopping } }, async (h, url) => {
      await h.client.ready();
      expect((await get(`${url}/readyz`)).json()).toMatchObject({ status: 'ready', store: 'ok', liveConnections: 3 });
      extras = { store: 'down' };
      const degraded = await get(`${url}/readyz`);
      expect([degraded.status, degraded.json()]).toEqual([200, expect.objectContaining({ status: 'degraded', degraded: ['store'], store: 'down' })]);
      stopping = true;
      const both = await get(`${url}/readyz`);
      expect([both.status, both.json()]).toEqual([503, expect.objectContaining({ status: 'not_ready', reasons: ['shutting_down'], degraded: ['store'] })]);
      extras = {};
      const res = await get(`${url}/readyz`);
      expect([res.status, res.json().reasons, res.json().degraded]).toEqual([503, ['shutting_down'], undefined]);
    });
  });
});

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const scrape = async (url: string, authorization?: string): Promise<{ status: number; body: string; challenge: string | null }> => {
  const res = await fetch(url, authorization === undefined ? {} : { headers: { Authorization: authorization } });
  return { status: res.status, body: await res.text(), challenge: res.headers.get('www-authenticate') };
};

describe('who may read /metrics', () => {
  it('is not served on the API port without METRICS_TOKEN (404), whatever the caller sends', async () => {
    const metrics = new Registry();
    await withApp({ app: { metrics } }, async (_h, url) => {
      for (const authorization of [undefined, `Bearer ${METRICS_TOKEN}`, 'Bearer ']) {
        const res = await scrape(`${url}/metrics`, authorization);
        expect(res.status).toBe(404);
        expect(res.body).not.toContain('game_platform_');
        expect(res.body).not.toContain('process_');
      }
    });
  });

  it('with METRICS_TOKEN, answers 401 to anyone without that bearer token and 200 to it', async () => {
    const metrics = new Registry();
    await withApp({ app: { metrics, metricsToken: METRICS_TOKEN } }, async (_h, url) => {
      for (const authorization of [undefined, '', 'Bearer', `Bearer ${METRICS_TOKEN}x`, `Bearer ${METRICS_TOKEN.slice(0, -1)}`, `Basic ${Buffer.from(`u:${METRICS_TOKEN}`).toString('base64')}`, METRICS_TOKEN]) {
        const res = await scrape(`${url}/metrics`, authorization);
        expect([authorization, res.status, res.challenge]).toEqual([authorization, 401, 'Bearer realm="metrics"']);
        expect(res.body).not.toContain('game_platform_');
        expect(res.body).not.toContain(METRICS_TOKEN);
      }
      const ok = await scrape(`${url}/metrics`, `Bearer ${METRICS_TOKEN}`);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('game_platform_circuit_state');
    });
  });

  it('reads METRICS_TOKEN and METRICS_PORT, refusing a short token or a bad port by name', () => {
    expect(loadMetricsSettings({})).toEqual({ token: null, port: null });
    expect(loadMetricsSettings({ METRICS_TOKEN: METRICS_TOKEN, METRICS_PORT: '9464' })).toEqual({ token: METRICS_TOKEN, port: 9464 });
    expect(() => loadMetricsSettings({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN must be 16 to 256/);
    expect(() => loadMetricsSettings({ METRICS_TOKEN: 'has a space in it, long enough' })).toThrow(/METRICS_TOKEN/);
    expect(() => loadMetricsSettings({ METRICS_PORT: '70000' })).toThrow(/METRICS_PORT must be a whole number/);
  });

  it('on a port of its own (METRICS_PORT), serves /metrics there only (bearer too when set), 404 elsewhere on it', async () => {
    const metrics = new Registry();
    metrics.registerMetric(new Gauge({ name: 'example_gauge', help: 'a gauge', registers: [] }));
    const own = await listenOnLoopback(metricsApp(metrics, { token: METRICS_TOKEN }));
    try {
      expect((await scrape(`${own.url}/metrics`)).status).toBe(401);
      const ok = await scrape(`${own.url}/metrics`, `Bearer ${METRICS_TOKEN}`);
      expect([ok.status, ok.body]).toEqual([200, expect.stringContaining('example_gauge')]);
      expect((await scrape(`${own.url}/api/me`, `Bearer ${METRICS_TOKEN}`)).status).toBe(404);
    } finally {
      await own.close();
    }
  });
});

describe('GET /metrics', () => {
  it('counts a scripted mix of outcomes exactly', async () => {
    const metrics = new Registry();
    await withApp({ client: { retries: 0, cache: { ttlMs: 60_000 } }, app: { metrics, metricsToken: METRICS_TOKEN } }, async (h, url) => {
      await h.client.ready();
      const player = h.token(DEMO.player);
      expect((await get(`${url}/api/me`, player)).status).toBe(200);
      expect((await get(`${url}/api/me`, player)).status).toBe(200); // cache hit
      expect((await get(`${url}/api/me`, h.token(DEMO.admin))).status).toBe(200);
      expect((await get(`${url}/api/me`, 'well-formed-but-unknown-token')).status).toBe(401);
      expect((await get(`${url}/api/me`, h.token(DEMO.unregistered))).status).toBe(403);
      h.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 1 });
      expect((await get(`${url}/api/me`, h.token(DEMO.noGuid))).status).toBe(503);
      const res = await get(`${url}/metrics`, METRICS_TOKEN);
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
