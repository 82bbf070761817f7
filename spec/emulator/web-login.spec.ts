import { HOURS_6_MS, useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { DEMO, call } from '../support/emulator-http.js';

const webCall = (url: string, token: string | null, gameId: string = DEMO.gameId): ReturnType<typeof call> =>
  call(`${url}/member/v3.0/${gameId}`, token === null ? {} : { headers: { authorization: `Bearer ${token}` } });

const form = (fields: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
});

describe('web token route GET /member/v3.0/{game_id} (no query)', () => {
  const fx = useEmulator({ clock: 'frozen' });

  it('answers E3\'s shape for the token\'s member', async () => {
    const res = await webCall(fx.url, fx.emulator.issueWebToken(DEMO.admin));
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"code":0,"message":"success","value":{"member_no":${DEMO.admin},"guid":${DEMO.adminGuid}}}`);
    expect(fx.emulator.requests()[0]?.endpoint).toBe('web');
  });

  it('issues tokens shaped like JWTs', () => {
    expect(fx.emulator.issueWebToken(DEMO.admin)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('omits guid for a member without one on that game', async () => {
    const res = await webCall(fx.url, fx.emulator.issueWebToken(DEMO.noGuid));
    expect(res.json).toEqual({ code: 0, message: 'success', value: { member_no: Number(DEMO.noGuid) } });
  });

  it('answers 40000 "bad request" with HTTP 200 for no token, an unknown token, an API token, or an unknown game', async () => {
    const web = fx.emulator.issueWebToken(DEMO.admin);
    const user = fx.emulator.login(DEMO.admin).access_token;
    for (const [token, game] of [[null, DEMO.gameId], ['nope', DEMO.gameId], [user, DEMO.gameId], [web, 'no-such-game']] as const) {
      const res = await webCall(fx.url, token, game);
      expect([res.status, res.json]).toEqual([200, { code: 40000, message: 'bad request' }]);
    }
  });

  it('expires a web token after 6 hours', async () => {
    const web = fx.emulator.issueWebToken(DEMO.admin);
    fx.emulator.advanceClock(HOURS_6_MS - 1);
    expect((await webCall(fx.url, web)).json.code).toBe(0);
    fx.emulator.advanceClock(1);
    expect((await webCall(fx.url, web)).json.code).toBe(40000);
  });
});

describe('browser login page /_emulator/web/*', () => {
  const fx = useEmulator();
  const back = 'http://127.0.0.1:3000/event?x=1';

  it('lists every seeded member with the redirect_url, all escaped', async () => {
    const res = await call(`${fx.url}/_emulator/web/login?redirect_url=${encodeURIComponent(`${back}&q="<b>`)}&game_id=${DEMO.gameId}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    for (const m of [DEMO.admin, DEMO.player, DEMO.noGuid, DEMO.unregistered, DEMO.big]) expect(res.text).toContain(`value="${m}"`);
    expect(res.text).toContain('x=1&#38;q=%22%3Cb%3E');
    expect(res.text).not.toContain('<b>');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  });

  it('sets the web token cookie and redirects back; the cookie\'s token verifies', async () => {
    const res = await call(`${fx.url}/_emulator/web/login`, form({ member_no: DEMO.player, redirect_url: back }));
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(back);
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^SUAT=[\w-]+\.[\w-]+\.[\w-]+; Path=\/; HttpOnly; SameSite=Lax$/);
    const token = /^SUAT=([^;]+)/.exec(cookie)?.[1] ?? '';
    expect((await webCall(fx.url, token)).json.value).toEqual({ member_no: Number(DEMO.player), guid: Number(DEMO.playerGuid) });
  });

  it('logs out: the token stops working, the cookie is cleared, and it redirects', async () => {
    const login = await call(`${fx.url}/_emulator/web/login`, form({ member_no: DEMO.admin, redirect_url: back }));
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const token = cookie.slice('SUAT='.length);
    const res = await call(`${fx.url}/_emulator/web/logout?redirect_url=${encodeURIComponent(back)}`, { headers: { cookie: `other=1; ${cookie}` } });
    expect([res.status, res.headers.get('location')]).toEqual([302, back]);
    expect(res.headers.get('set-cookie')).toBe('SUAT=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0');
    expect((await webCall(fx.url, token)).json.code).toBe(40000);
    expect((await call(`${fx.url}/_emulator/web/logout`)).status).toBe(200);
  });

  it.each([
    'https://evil.example/steal',
    'http://127.0.0.1.evil.example/',
    '//evil.example/',
    '/relative',
    'javascript:alert(1)',
    'http://user:pass@127.0.0.1/',
    'ftp://127.0.0.1/',
    '',
  ])('refuses redirect_url %j with 400 (no open redirect)', async (target) => {
    const get = await call(`${fx.url}/_emulator/web/login?redirect_url=${encodeURIComponent(target)}`);
    const post = await call(`${fx.url}/_emulator/web/login`, form({ member_no: DEMO.admin, redirect_url: target }));
    const out = await call(`${fx.url}/_emulator/web/logout?redirect_url=${encodeURIComponent(target)}`);
    expect([get.status, post.status, out.status]).toEqual([400, 400, 400]);
    expect(post.headers.get('set-cookie')).toBeNull();
  });

  it.each(['http://localhost:3000/e', 'https://127.0.0.2/e', 'http://[::1]:8080/e', 'http://app.localhost/e'])('allows loopback %s', async (target) => {
    const res = await call(`${fx.url}/_emulator/web/login`, form({ member_no: DEMO.admin, redirect_url: target }));
    expect([res.status, res.headers.get('location')]).toEqual([302, target]);
  });

  it('answers 400 for an unknown member or game and 404 for an unknown page', async () => {
    expect((await call(`${fx.url}/_emulator/web/login`, form({ member_no: '1', redirect_url: back }))).status).toBe(400);
    expect((await call(`${fx.url}/_emulator/web/login?redirect_url=${encodeURIComponent(back)}&game_id=nope`)).status).toBe(400);
    expect((await call(`${fx.url}/_emulator/web/other`)).status).toBe(404);
  });

  it('logs login-page requests as login-page and masks the cookie', async () => {
    await call(`${fx.url}/_emulator/web/logout`, { headers: { cookie: 'SUAT=abcdefghijklmnopqrstuvwxyz' } });
    const [entry] = fx.emulator.requests({ endpoint: 'login-page' });
    expect(entry?.headers.cookie).toBe('SUAT=***wxyz');
  });
});

describe('login page options', () => {
  it('escapes seeded text in the page', async () => {
    const seed = {
      clients: [{ client_id: 'c', client_secret: 's', service_id: 'g' }],
      members: [{ member_no: '1', nickname: '<script>alert("x")</script>', guids: { g: '2' } }],
    };
    await withEmulator({ seed }, async (emulator) => {
      const res = await call(`${emulator.url}/_emulator/web/login?redirect_url=${encodeURIComponent('http://127.0.0.1/')}`);
      expect(res.text).toContain('Log in as &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62;');
      expect(res.text).not.toContain('<script>');
    });
  });

  it('uses webCookieName and allowedRedirectHosts', async () => {
    await withEmulator({ webCookieName: 'WEBT', allowedRedirectHosts: ['game.test'] }, async (emulator) => {
      const res = await call(`${emulator.url}/_emulator/web/login`, form({ member_no: DEMO.admin, redirect_url: 'https://game.test/event' }));
      expect(res.status).toBe(302);
      expect(res.headers.get('set-cookie')).toMatch(/^WEBT=/);
    });
  });
});
