import request from 'supertest';
import { createApp } from '../../example-app/create-app.js';
import { DEMO, startAppHarness } from '../support/app-harness.js';
import type { AppHarness } from '../support/app-harness.js';

let h: AppHarness;

beforeAll(async () => {
  h = await startAppHarness();
});

afterAll(async () => {
  await h.close();
});

const bearer = (token: string): [string, string] => ['Authorization', `Bearer ${token}`];

describe('example app routes', () => {
  it('GET /healthz answers 200 {"status":"ok"} without credentials', async () => {
    const res = await request(h.app).get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /healthz answers 503 {"status":"starting"} until the start-up is done', async () => {
    let ready = false;
    const app = createApp({ client: h.client, adminMemberNos: [], isReady: () => ready });
    const before = await request(app).get('/healthz');
    ready = true;
    const after = await request(app).get('/healthz');
    expect([before.status, before.body]).toEqual([503, { status: 'starting' }]);
    expect([after.status, after.body]).toEqual([200, { status: 'ok' }]);
  });

  it('GET /api/me answers the player of the bearer token', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.player)));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
  });

  it('sends its per-player answers with no-store and no ETag; the event page keeps its ETag', async () => {
    const me = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.player)));
    expect([me.status, me.headers['cache-control'], me.headers.etag]).toEqual([200, 'no-store', undefined]);
    const page = await request(h.app).get('/event/event.js');
    expect(page.status).toBe(200);
    expect(page.headers.etag).toMatch(/^W\/"/);
  });

  it('answers an OPTIONS preflight of /api/me with the methods it takes and no challenge', async () => {
    const res = await request(h.app).options('/api/me').set('Origin', 'http://game.example').set('Access-Control-Request-Method', 'GET');
    expect([res.status, res.headers.allow, res.headers['www-authenticate'], res.text]).toEqual([200, 'GET, HEAD', undefined, 'GET, HEAD']);
  });

  it('GET /api/me answers guid null for a member who has not accepted the terms', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.noGuid)));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member_no: DEMO.noGuid, guid: null });
  });

  it('keeps identifiers above 2^53 exact, as strings', async () => {
    const res = await request(h.app).get('/api/me').set(...bearer(h.token(DEMO.big)));
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"member_no":"${DEMO.big}","guid":"${DEMO.bigGuid}"}`);
  });

  it('accepts a lower-case scheme and extra spaces (RFC 6750)', async () => {
    const res = await request(h.app).get('/api/me').set('Authorization', `bearer   ${h.token(DEMO.player)}`);
    expect(res.status).toBe(200);
  });

  it('answers an unknown route with a JSON 404 problem', async () => {
    const res = await request(h.app).get('/nope');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, action: 'none', title: 'Not found' });
  });

  it('GET /event serves the HTML page with a strict CSP, and its assets', async () => {
    const page = await request(h.app).get('/event');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.text).toContain('data-testid="login-link"');
    const script = await request(h.app).get('/event/event.js');
    expect(script.status).toBe(200);
    expect(script.headers['content-type']).toMatch(/javascript/);
    expect(script.text).not.toContain('innerHTML');
  });

  it('GET /api/event/config tells the page where to log in and out', async () => {
    const res = await request(h.app).get('/api/event/config');
    expect(res.body).toEqual({
      login_url: `${h.emulator.url}/_emulator/web/login`,
      logout_url: `${h.emulator.url}/_emulator/web/logout`,
      game_id: DEMO.gameId,
    });
  });

  it('createApp names a missing client', async () => {
    const { createApp } = await import('../../example-app/create-app.js');
    expect(() => createApp({ adminMemberNos: [] } as never)).toThrow('createApp: config.client must be a PlatformClient');
  });
});
