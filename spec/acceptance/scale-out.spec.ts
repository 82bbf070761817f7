import { createClient } from 'redis';
import { PlatformClient } from '../../lib/index.js';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { startAppProcess } from '../support/app-process.js';
import type { AppProcess } from '../support/app-process.js';
import { DEMO } from '../support/app-harness.js';
import { openIo, openWs } from '../support/realtime-harness.js';
import { startTestRedis } from '../support/redis-server.js';
import type { TestRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';

// Three example-app processes behind one Redis, against one emulator.
const READY = /Ready: (http:\/\/127\.0\.0\.1:\d+)/;
const METRICS_TOKEN = 'scale-out-scrape-token-42';

describe('three example-app instances on one Redis', () => {
  let emulator: Emulator;
  let redis: TestRedis;
  let apps: AppProcess[] = [];
  let urls: string[] = [];
  const e2Count = (): number => emulator.requests({ endpoint: 'E2' }).length;
  const token = (memberNo: string): string => emulator.login(memberNo, DEMO.gameId).access_token;
  const get = async (url: string, bearer: string, method = 'GET'): Promise<number> =>
    (await fetch(url, { method, headers: { Authorization: `Bearer ${bearer}` } })).status;

  beforeAll(async () => {
    [emulator, redis] = await Promise.all([startEmulator(), startTestRedis()]);
    // Each instance serves /metrics its own way: behind a bearer token, on a port of its own, or not at all.
    apps = ([{ METRICS_TOKEN }, { METRICS_PORT: '0' }, {}] as Array<Record<string, string>>).map((metricsEnv) => startAppProcess({
      PORT: '0',
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: DEMO.clientId,
      PLATFORM_CLIENT_SECRET: DEMO.clientSecret,
      PLATFORM_GAME_ID: DEMO.gameId,
      ADMIN_MEMBER_NOS: DEMO.admin,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 'pgp-scale:',
      VERIFY_CACHE_TTL_MS: '60000',
      REVERIFY_INTERVAL_MS: '0',
      ...metricsEnv,
    }));
    urls = await Promise.all(apps.map(async (app) => (await app.waitForOutput(READY, 100_000))[1]!));
    await until(async () => {
      const states = await Promise.all(urls.map(async (url) => (await fetch(`${url}/readyz`)).status));
      return states.every((s) => s === 200);
    }, 10_000, 'every instance ready');
  }, 120_000);

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
    await redis?.stop();
    await emulator?.close();
  });

  it('serves /metrics only behind METRICS_TOKEN or on METRICS_PORT, never to anonymous clients on the API port', async () => {
    const status = async (url: string, authorization?: string): Promise<number> =>
      (await fetch(url, authorization === undefined ? {} : { headers: { Authorization: authorization } })).status;
    expect(await status(`${urls[0]}/metrics`)).toBe(401);
    expect(await status(`${urls[0]}/metrics`, 'Bearer not-the-token-at-all')).toBe(401);
    expect(await status(`${urls[0]}/metrics`, `Bearer ${METRICS_TOKEN}`)).toBe(200);
    expect(await status(`${urls[1]}/metrics`)).toBe(404);
    const [, own] = await apps[1]!.waitForOutput(/Metrics: (http:\/\/127\.0\.0\.1:\d+)\/metrics/, 5000);
    const scraped = await fetch(`${own}/metrics`);
    expect([scraped.status, await scraped.text()]).toEqual([200, expect.stringContaining('game_platform_circuit_state')]);
    expect(await status(`${urls[2]}/metrics`)).toBe(404);
    expect(await status(`${urls[2]}/metrics`, `Bearer ${METRICS_TOKEN}`)).toBe(404);
  });

  it('spreads one player over three instances with one E2 call per cache lifetime', async () => {
    const bearer = token(DEMO.player);
    const before = e2Count();
    expect(await get(`${urls[0]}/api/me`, bearer)).toBe(200);
    // Entries are written after the answer: wait for the first to land in Redis, then spread.
    await until(async () => (await get(`${urls[1]}/api/me`, bearer)) === 200 && e2Count() - before <= 2, 15_000, 'the shared entry');
    const settled = e2Count();
    for (let i = 0; i < 30; i += 1) expect(await get(`${urls[i % 3]}/api/me`, bearer)).toBe(200);
    expect(e2Count()).toBe(settled);
    expect(settled - before).toBeLessThanOrEqual(2);
  });

  it('logout on one instance makes the other two answer 401 though the platform still accepts the token', async () => {
    const bearer = token(DEMO.player);
    for (const url of urls) expect(await get(`${url}/api/me`, bearer)).toBe(200);
    expect(await get(`${urls[0]}/api/logout`, bearer, 'POST')).toBe(204);
    // How soon is a bench figure (bench/scale-out.ts); here, that it happens at all.
    await until(async () => (await get(`${urls[1]}/api/me`, bearer)) === 401 && (await get(`${urls[2]}/api/me`, bearer)) === 401, 15_000, '401 on the other instances');
    const problem = await (await fetch(`${urls[2]}/api/me`, { headers: { Authorization: `Bearer ${bearer}` } })).json() as { action: string };
    expect(problem.action).toBe('relogin');
    // The platform itself still accepts it: the refusal is the game's revocation.
    const direct = new PlatformClient({ baseUrl: emulator.url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, gameId: DEMO.gameId });
    try {
      await expect(direct.verifyUserToken(bearer)).resolves.toMatchObject({ memberNo: DEMO.player });
    } finally {
      await direct.close();
    }
  });

  it('an admin disconnect ends the member\'s sockets on all three instances', async () => {
    const member = DEMO.player;
    const sockets = await Promise.all(urls.map((url) => openIo(url, { token: token(member) })));
    const ws = await Promise.all(urls.map((url) => openWs(`${url.replace('http', 'ws')}/ws`, { Authorization: `Bearer ${token(member)}` })));
    const ended = sockets.map(({ socket }) => new Promise((resolve) => socket.once('session:ended', resolve)));
    const admin = token(DEMO.admin);
    expect(await get(`${urls[1]}/admin/members/${member}/disconnect`, admin, 'POST')).toBe(202);
    expect(await Promise.all(ended)).toEqual([{ reason: 'admin' }, { reason: 'admin' }, { reason: 'admin' }]);
    const closes = await Promise.all(ws.map((w) => w.closed));
    for (const close of closes) expect(close.code).toBe(4403); // the realtime adapters' code for an admin end
    for (const { socket } of sockets) socket.close();
  });

  it('keeps answering through the platform and stays ready (degraded) while Redis is down, shares again once it is back, and Redis holds no token or secret', async () => {
    if (!redis.own) return; // REDIS_URL: not ours to kill
    await redis.kill();
    // Degraded is not down: every instance stays in rotation and names the store.
    const readiness = async (url: string): Promise<[number, { status: string; degraded?: string[] }]> => {
      const res = await fetch(`${url}/readyz`);
      return [res.status, await res.json() as { status: string; degraded?: string[] }];
    };
    await until(async () => (await readiness(urls[0]!))[1].status === 'degraded', 15_000, '/readyz to report the store');
    for (const url of urls) {
      await until(async () => (await readiness(url))[1].status === 'degraded', 15_000, 'every instance to see the store down');
      const [status, body] = await readiness(url);
      expect([status, body.degraded]).toEqual([200, ['store']]);
    }
    const bearer = token(DEMO.player);
    const before = e2Count();
    for (const url of urls) expect(await get(`${url}/api/me`, bearer)).toBe(200);
    expect(e2Count() - before).toBe(3); // no sharing, no failure
    await redis.restart();
    await until(async () => {
      const states = await Promise.all(urls.map(async (url) => (await readiness(url))[1].status));
      return states.every((s) => s === 'ready');
    }, 8000, 'every instance to reconnect');
    const fresh = token(DEMO.player);
    expect(await get(`${urls[0]}/api/me`, fresh)).toBe(200);
    const afterFirst = e2Count();
    await until(async () => (await get(`${urls[2]}/api/me`, fresh)) === 200 && e2Count() === afterFirst, 15_000, 'sharing restored');
    expect(await get(`${urls[1]}/api/me`, fresh)).toBe(200);
    expect(e2Count()).toBe(afterFirst);

    const raw = createClient({ url: redis.url });
    await raw.connect();
    try {
      const keys = await raw.keys('*');
      expect(keys.length).toBeGreaterThan(0);
      const dump: unknown[] = [];
      // The session-end log is a stream; every other key a string.
      for (const key of keys) dump.push(key, (await raw.type(key)) === 'stream' ? await raw.xRange(key, '-', '+') : await raw.get(key));
      const text = JSON.stringify(dump);
      for (const secret of [fresh, bearer, DEMO.clientSecret]) expect(text).not.toContain(secret);
      for (const key of keys) expect(key).toMatch(/^pgp-scale:([0-9a-f]{16}:(E2|web|revoked):[0-9a-f]{64}|revoked:[0-9a-f]{64}|(\{[0-9a-f]{16}\}:)?session-end-log)$/);
    } finally {
      await raw.close();
    }
  });
});
