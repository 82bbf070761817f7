import request from 'supertest';
import { DEMO, startAppHarness } from '../support/app-harness.js';
import type { AppHarness } from '../support/app-harness.js';

// The error table of docs/errors.md, row by row, through the example app's protected routes.

const PROBLEM = /^application\/problem\+json/;
const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

describe('error answers of /api/me (the README error table)', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness({ client: { timeoutMs: 10_000, totalTimeoutMs: 30_000, retries: 1, retryBaseDelayMs: 0, retryMaxDelayMs: 10 } });
  });
  beforeEach(() => {
    h.emulator.clearFaults();
    h.emulator.clearRequests();
  });
  afterAll(async () => {
    await h.close();
  });
  const verifyCalls = (): number => h.emulator.requests({ endpoint: 'E2' }).length;

  it.each([
    ['no Authorization header', undefined],
    ['another scheme (Basic)', 'Basic dXNlcjpwYXNz'],
  ])('answers 401 login with a bare challenge for %s, without calling the platform', async (_name, header) => {
    const req = request(h.app).get('/api/me');
    if (header !== undefined) req.set('Authorization', header);
    const res = await req;
    expect(res.status).toBe(401);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="game-platform"');
    expect(res.body).toMatchObject({ status: 401, action: 'login' });
    expect(res.body.code).toBeUndefined();
    expect(verifyCalls()).toBe(0);
  });

  it.each([
    ['Bearer with no token', 'Bearer '],
    ['a tab after the scheme', 'Bearer\tabc'],
    ['extra parts', 'Bearer abc def'],
  ])('answers 400 invalid_request for %s, without calling the platform', async (_name, header) => {
    const res = await request(h.app).get('/api/me').set('Authorization', header);
    expect(res.status).toBe(400);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="game-platform", error="invalid_request"/);
    expect(res.body).toMatchObject({ status: 400, action: 'login' });
    expect(verifyCalls()).toBe(0);
  });

  it('answers 400 for a token in the header and the query at once', async () => {
    const res = await request(h.app).get('/api/me?access_token=abc').set(...bearer('abc'));
    expect(res.status).toBe(400);
    expect(verifyCalls()).toBe(0);
  });

  it('answers 401 relogin for a token with characters outside b64token, without calling the platform', async () => {
    const res = await request(h.app).get('/api/me').set('Authorization', 'Bearer a"b');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/error="invalid_token"/);
    expect(res.body).toMatchObject({ status: 401, action: 'relogin' });
    expect(verifyCalls()).toBe(0);
  });

  it('answers 401 relogin for a token longer than 4096 characters, without calling the platform', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer('a'.repeat(4097)));
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('relogin');
    expect(verifyCalls()).toBe(0);
  });

  it('answers 401 relogin with code 40000 for a token the platform rejects', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer('not-a-real-token'));
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
    expect(res.body).toMatchObject({ status: 401, action: 'relogin', code: 40000 });
    expect(verifyCalls()).toBe(1);
  });

  it('answers 403 register_device with code 46217 and no challenge', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.unregistered)));
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.body).toMatchObject({ status: 403, action: 'register_device', code: 46217 });
  });

  it.each([
    ['5xx with an HTML body', { type: 'http5xx' as const }],
    ['code 50000', { type: 'code' as const, code: 50000 }],
    ['a dropped connection', { type: 'drop' as const }],
  ])('answers 503 retry_later with Retry-After when the platform keeps failing: %s', async (_name, fault) => {
    const token = h.token(DEMO.player);
    h.emulator.injectFault({ endpoint: 'E2', count: -1, ...fault });
    const res = await request(h.app).get('/api/me').set(...bearer(token));
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['www-authenticate']).toBeUndefined();
    expect(res.body).toMatchObject({ status: 503, action: 'retry_later' });
    if (fault.type === 'code') expect(res.body.code).toBe(50000);
    h.emulator.clearFaults();
    expect((await request(h.app).get('/api/me').set(...bearer(token))).status).toBe(200);
  });

  it('answers 503 retry_later with Retry-After when the platform hangs, once its short budget is spent', async () => {
    const hung = await startAppHarness({ client: { timeoutMs: 300, totalTimeoutMs: 1500, retries: 1, retryBaseDelayMs: 0, retryMaxDelayMs: 10 } });
    try {
      hung.emulator.injectFault({ endpoint: 'E2', type: 'hang', count: -1 });
      const res = await request(hung.app).get('/api/me').set(...bearer(hung.token(DEMO.player)));
      expect([res.status, res.headers['retry-after'], res.headers['www-authenticate']]).toEqual([503, expect.stringMatching(/^\d+$/), undefined]);
      expect(res.body).toMatchObject({ status: 503, action: 'retry_later' });
      expect(hung.emulator.requests({ endpoint: 'E2' }).map((e) => [e.fault, e.status])).toEqual([['hang', null], ['hang', null]]);
    } finally {
      await hung.close();
    }
  });

  it('answers a malformed JSON body with 400 problem+json, without a stack trace', async () => {
    const res = await request(h.app).get('/api/me').set('Content-Type', 'application/json').send('{"a":');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
    expect(res.text).not.toContain('SyntaxError');
  });

  it('answers a 1 MB body with 413 problem+json', async () => {
    const res = await request(h.app).get('/api/me').set('Content-Type', 'application/json').send(`{"a":"${'x'.repeat(1_000_000)}"}`);
    expect(res.status).toBe(413);
    expect(res.headers['content-type']).toMatch(PROBLEM);
    expect(res.body.status).toBe(413);
  });

  it('ignores access_token in a JSON body: 401 login without calling the platform', async () => {
    const res = await request(h.app).get('/api/me').send({ access_token: h.token(DEMO.player) });
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('login');
    expect(verifyCalls()).toBe(0);
  });
});

describe.each([
  ['a wrong client secret', { clientSecret: 'wrong-secret-value' }, 40105],
  ['a Game ID other than the credentials\'', { gameId: 'other-game' }, 41002],
])('with %s', (_name, clientOptions, code) => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness({ client: clientOptions });
  });
  afterAll(async () => {
    await h.close();
  });

  it(`answers 500 contact_support with code ${code}, never 401, and leaks no secret`, async () => {
    for (let i = 0; i < 3; i += 1) {
      const res = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.player)));
      expect(res.status).toBe(500);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.body).toMatchObject({ status: 500, action: 'contact_support', code });
      expect(res.text).not.toContain('wrong-secret-value');
      expect(res.text).not.toContain('demo-secret');
    }
    // The provider backs off: no E1 storm.
    expect(h.emulator.requests({ endpoint: 'E1' }).length).toBeLessThanOrEqual(2);
    expect(JSON.stringify(h.logger.lines)).not.toContain('wrong-secret-value');
  });

  it('still answers /healthz and the event page', async () => {
    expect((await request(h.app).get('/healthz')).status).toBe(200);
    expect((await request(h.app).get('/event')).status).toBe(200);
  });
});
