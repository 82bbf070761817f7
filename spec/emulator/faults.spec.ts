import { Agent } from 'node:http';
import { useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, issue, lookup, postJson, rawRequest, verify } from '../support/emulator-http.js';

describe('fault injection', () => {
  const fx = useEmulator();
  let token: string;
  let user: string;
  beforeAll(async () => {
    token = await apiToken(fx.url);
    user = fx.emulator.login(DEMO.admin).access_token;
  });
  const e2 = (): ReturnType<typeof verify> => verify(fx.url, token, user);

  it('latency: waits latencyMs, then answers normally', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 250 });
    const started = performance.now();
    const res = await e2();
    // A lower bound only: the fault's delay is the least the answer took, however busy the machine.
    const waited = performance.now() - started;
    expect(waited).toBeGreaterThanOrEqual(240);
    expect(res.json.code).toBe(0);
    expect(fx.emulator.requests({ endpoint: 'E2' })[0]).toMatchObject({ fault: 'latency', status: 200, code: 0 });
  });

  it('hold: answers normally only once released, and a caller gone meanwhile is not answered', async () => {
    fx.emulator.clearRequests();
    fx.emulator.injectFault({ endpoint: 'E2', type: 'hold', count: 2 });
    let settled = false;
    const held = e2().finally(() => void (settled = true));
    const controller = new AbortController();
    const gone = fetch(`${fx.url}/member/v3.0/${DEMO.gameId}/token/verify`, { method: 'POST', signal: controller.signal, body: '{}' }).catch(() => 'aborted');
    while (fx.emulator.held() < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    // Other calls pass by: nothing answers the held one but the release.
    expect((await e2()).json.code).toBe(0);
    expect(settled).toBe(false);
    controller.abort();
    expect(await gone).toBe('aborted');
    while (fx.emulator.held() > 1) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fx.emulator.releaseHeld()).toBe(1);
    expect((await held).json.code).toBe(0);
    expect(fx.emulator.held()).toBe(0);
    expect(fx.emulator.requests({ endpoint: 'E2' }).filter((e) => e.fault === 'hold').map((e) => e.status)).toEqual(expect.arrayContaining([200, null]));
  });

  it('latency: a caller that hangs up meanwhile gets no answer, and its entry keeps status null', async () => {
    fx.emulator.clearRequests();
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 60_000 });
    const controller = new AbortController();
    const pending = fetch(`${fx.url}/member/v3.0/${DEMO.gameId}/token/verify`, {
      method: 'POST', signal: controller.signal,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'caller-id': `${DEMO.gameId}_SERVER` },
      body: JSON.stringify({ access_token: user }),
    }).catch(() => 'aborted');
    while (fx.emulator.requests({ endpoint: 'E2' }).length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    expect(await pending).toBe('aborted');
    // The next call is answered at once (the hung-up one left no timer answering into the void).
    expect((await e2()).json.code).toBe(0);
    const [hungUp, next] = fx.emulator.requests({ endpoint: 'E2' });
    expect(hungUp).toMatchObject({ fault: 'latency', status: null });
    expect(hungUp).not.toHaveProperty('code');
    expect(next).toMatchObject({ status: 200, code: 0 });
  });

  it('code: answers {code, message} with the style\'s status, or the status given', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000 });
    fx.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, status: 503, message: 'maintenance' });
    fx.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101 });
    expect(await e2()).toMatchObject({ status: 200, json: { code: 50000, message: 'unknown error' } });
    expect(await e2()).toMatchObject({ status: 503, json: { code: 50000, message: 'maintenance' } });
    expect(await e2()).toMatchObject({ status: 401, json: { code: 40101 } });
    expect((await e2()).json.code).toBe(0);
  });

  it('http5xx: answers 502 (default) or the given 5xx with an HTML body', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'http5xx' });
    fx.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', status: 503 });
    for (const status of [502, 503]) {
      const res = await e2();
      expect(res.status).toBe(status);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).toMatch(/^<html>.*<\/html>$/);
      expect(res.json).toBeUndefined();
    }
  });

  it('drop: destroys the socket without an answer', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'drop' });
    await expect(e2()).rejects.toThrow('fetch failed');
    expect((await e2()).json.code).toBe(0);
    expect(fx.emulator.requests({ endpoint: 'E2' })[0]).toMatchObject({ fault: 'drop', status: null });
  });

  it.each([
    ['text', (t: string) => expect(() => JSON.parse(t)).toThrow()],
    ['html', (t: string) => expect(t).toMatch(/^<html>/)],
    ['truncated-json', (t: string) => expect(() => JSON.parse(t)).toThrow()],
    ['empty', (t: string) => expect(t).toBe('')],
    ['json-without-code', (t: string) => expect(JSON.parse(t)).not.toHaveProperty('code')],
  ] as const)('garbage %s: HTTP 200 with a body that is not a platform answer', async (variant, check) => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'garbage', variant });
    const res = await e2();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    check(res.text);
  });

  it('consumes faults in order, count times each, only on their endpoint', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 2 });
    fx.emulator.injectFault({ endpoint: 'E3', type: 'http5xx' });
    fx.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', status: 504 });
    expect((await issue(fx.url)).json.code).toBe(0);
    const statuses = [];
    for (let i = 0; i < 4; i += 1) {
      const res = await e2();
      statuses.push(`${res.status}:${res.json?.code ?? 'html'}`);
    }
    expect(statuses).toEqual(['200:50000', '200:50000', '504:html', '200:0']);
    expect(fx.emulator.pendingFaults()).toEqual([{ endpoint: 'E3', type: 'http5xx', count: 1 }]);
    expect((await lookup(fx.url, token, 'search_type=guid&value=1')).status).toBe(502);
    expect(fx.emulator.requests().map((e) => e.fault ?? '-')).toEqual(['-', 'code', 'code', 'http5xx', '-', 'http5xx']);
  });

  it('count -1 or Infinity lasts until cleared; "any" hits E1, E2, E3 and web but never control or login-page calls', async () => {
    fx.emulator.injectFault({ type: 'code', code: 50000, count: Infinity });
    expect((await issue(fx.url)).json.code).toBe(50000);
    expect((await e2()).json.code).toBe(50000);
    expect((await lookup(fx.url, token, 'search_type=guid&value=1')).json.code).toBe(50000);
    expect((await call(`${fx.url}/member/v3.0/${DEMO.gameId}`)).json.code).toBe(50000);
    expect((await postJson(`${fx.url}/_emulator/login`, { member_no: DEMO.admin })).status).toBe(200);
    expect((await call(`${fx.url}/_emulator/web/login?redirect_url=http://127.0.0.1/`)).status).toBe(200);
    expect(fx.emulator.pendingFaults()).toEqual([{ type: 'code', code: 50000, endpoint: 'any', count: Infinity }]);
    fx.emulator.clearFaults();
    expect((await e2()).json.code).toBe(0);
  });

  it('makes the is-it-our-API-token case testable: E2 says 40000 for every token while E3 tells whether our API token is good', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: -1 });
    const other = fx.emulator.login(DEMO.player).access_token;
    expect([(await e2()).json.code, (await verify(fx.url, token, other)).json.code]).toEqual([40000, 40000]);
    expect((await lookup(fx.url, token, `search_type=member_no&value=${DEMO.admin}`)).json.code).toBe(0);
    fx.emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, count: -1 });
    expect((await lookup(fx.url, token, `search_type=member_no&value=${DEMO.admin}`)).status).toBe(401);
  });
});

describe('reset-reused (the keep-alive reset race)', () => {
  const fx = useEmulator();

  it('destroys a request on a reused keep-alive socket, and only such a request consumes it', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const url = `${fx.url}/member/v3.0/${DEMO.gameId}?search_type=guid&value=1`;
      fx.emulator.injectFault({ type: 'reset-reused' });
      const first = await rawRequest(url, { agent });
      expect([first.status, first.reusedSocket]).toEqual([401, false]);
      expect(fx.emulator.pendingFaults()).toHaveLength(1);
      const error = await rawRequest(url, { agent }).then(() => null, (err: NodeJS.ErrnoException & { reusedSocket?: boolean }) => err);
      expect(error).toMatchObject({ code: 'ECONNRESET', reusedSocket: true });
      expect(fx.emulator.pendingFaults()).toEqual([]);
      const retried = await rawRequest(url, { agent });
      expect(retried.status).toBe(401);
      expect(fx.emulator.requests().map((e) => e.fault ?? '-')).toEqual(['-', 'reset-reused', '-']);
    } finally {
      agent.destroy();
    }
  });
});

describe('hang and close', () => {
  it('hang: the client gives up on its own timeout, and close() still returns at once', async () => {
    await withEmulator({}, async (emulator) => {
      const token = await apiToken(emulator.url);
      emulator.injectFault({ endpoint: 'E2', type: 'hang', count: 3 });
      const aborted = verify(emulator.url, token, 'x');
      const raw = rawRequest(`${emulator.url}/member/v3.0/${DEMO.gameId}/token/verify`, { method: 'POST', body: '{}' });
      const rawOutcome = raw.then(() => 'answered', (err: Error) => `failed:${err.message}`);
      await expect(Promise.race([aborted, new Promise((r) => setTimeout(r, 300, 'still waiting'))])).resolves.toBe('still waiting');
      await expect(fetch(`${emulator.url}/member/v3.0/${DEMO.gameId}/token/verify`, { method: 'POST', signal: AbortSignal.timeout(50) }))
        .rejects.toMatchObject({ name: 'TimeoutError' });
      expect(emulator.requests({ endpoint: 'E2' }).map((e) => [e.fault, e.status])).toEqual([['hang', null], ['hang', null], ['hang', null]]);
      // close() returns though three requests hang: it destroys their sockets (else this test would time out).
      await emulator.close();
      await expect(aborted).rejects.toThrow();
      await expect(rawOutcome).resolves.toMatch(/^failed:/);
    });
  });

  it('close() cancels a pending latency fault instead of waiting for it', async () => {
    await withEmulator({}, async (emulator) => {
      emulator.injectFault({ type: 'latency', latencyMs: 60_000 });
      const pending = rawRequest(`${emulator.url}/auth/v5/server_token`, { method: 'POST', body: '{}' }).then(() => 'answered', () => 'failed');
      while (emulator.requests().length === 0) await new Promise((r) => setTimeout(r, 5));
      // Returns long before the 60 s answer (the test's own timeout is 20 s), and nobody is answered.
      await emulator.close();
      await expect(pending).resolves.toBe('failed');
    });
  });
});
