import request from 'supertest';
import { DEMO, startAppHarness } from '../support/app-harness.js';
import type { AppHarness } from '../support/app-harness.js';

// The web flow: the emulator's login page sets the web token cookie, the
// browser sends it to the app (same host name), /api/event/me verifies it.

const PAGE = 'http://127.0.0.1:3000/event';

/** Logs a member in on the emulator's page; returns the Set-Cookie pair `NAME=token`. */
async function webLogin(h: AppHarness, memberNo: string): Promise<string> {
  const res = await fetch(`${h.emulator.url}/_emulator/web/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ member_no: memberNo, redirect_url: PAGE }).toString(),
  });
  expect(res.status).toBe(302);
  expect(res.headers.get('location')).toBe(PAGE);
  const cookie = res.headers.get('set-cookie') ?? '';
  return cookie.split(';')[0]!;
}

describe('GET /api/event/me with the web token cookie', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('answers the member of the SUAT cookie', async () => {
    const cookie = await webLogin(h, DEMO.player);
    expect(cookie).toMatch(/^SUAT=[\w-]+\.[\w-]+\.[\w-]+$/);
    const res = await request(h.app).get('/api/event/me').set('Cookie', cookie);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
    expect(h.emulator.requests({ endpoint: 'web' }).length).toBeGreaterThan(0);
  });

  it('answers 401 login with no cookie', async () => {
    const res = await request(h.app).get('/api/event/me');
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('login');
  });

  it('also accepts a bearer user token', async () => {
    const res = await request(h.app).get('/api/event/me').set('Authorization', `Bearer ${h.token(DEMO.noGuid)}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member_no: DEMO.noGuid, guid: null });
  });

  it('answers 401 relogin after the emulator logout revoked the cookie token', async () => {
    const cookie = await webLogin(h, DEMO.player);
    const logout = await fetch(`${h.emulator.url}/_emulator/web/logout?redirect_url=${encodeURIComponent(PAGE)}`, {
      redirect: 'manual',
      headers: { cookie },
    });
    expect(logout.status).toBe(302);
    expect(logout.headers.get('set-cookie')).toMatch(/^SUAT=;.*Max-Age=0/);
    const res = await request(h.app).get('/api/event/me').set('Cookie', cookie);
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ action: 'relogin', code: 40000 });
  });

  it('answers 401 relogin once the web token has expired', async () => {
    const cookie = await webLogin(h, DEMO.admin);
    h.emulator.advanceClock(6 * 3_600_000 + 1000);
    const res = await request(h.app).get('/api/event/me').set('Cookie', cookie);
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('relogin');
  });

  it('does not take the cookie on /api/me (bearer only)', async () => {
    const cookie = await webLogin(h, DEMO.player);
    const res = await request(h.app).get('/api/me').set('Cookie', cookie);
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('login');
  });

  it('answers 400 for two different token cookies (ambiguous)', async () => {
    const a = await webLogin(h, DEMO.player);
    const b = await webLogin(h, DEMO.admin);
    const res = await request(h.app).get('/api/event/me').set('Cookie', `${a}; ${b}`);
    expect(res.status).toBe(400);
  });
});

describe('with another cookie name', () => {
  let h: AppHarness;
  beforeAll(async () => {
    h = await startAppHarness({ emulator: { webCookieName: 'WEBTOKEN' }, app: { webCookieName: 'WEBTOKEN' } });
  });
  afterAll(async () => {
    await h.close();
  });

  it('reads the configured cookie', async () => {
    const cookie = await webLogin(h, DEMO.player);
    expect(cookie.startsWith('WEBTOKEN=')).toBe(true);
    const res = await request(h.app).get('/api/event/me').set('Cookie', cookie);
    expect(res.status).toBe(200);
  });
});
