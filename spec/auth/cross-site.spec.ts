import request from 'supertest';
import { createAuthenticator } from '../../lib/auth/authenticate.js';
import type { AuthRequest } from '../../lib/auth/types.js';
import { EXPRESS_VERSIONS, buildApp, loadPassport, type GuardMode } from '../support/http-apps.js';
import { FAKE_USER, fakeVerifier } from '../support/http-fake-verifier.js';

// A browser attaches a cookie to any site's request, a cross-site form POST
// included: so for unsafe methods with a cookie token, Sec-Fetch-Site / Origin
// must say this site (or an allowed origin).

const passport = await loadPassport();
const MODES: GuardMode[] = ['requireGameUser', 'passport'];
const COOKIE = 'SUAT=okWeb';

interface Case {
  name: string;
  method?: 'get' | 'post';
  headers: Record<string, string>;
  status: number;
}

const CASES: Case[] = [
  { name: 'a cross-site form POST (Origin of another site, Sec-Fetch-Site: cross-site)', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, status: 403 },
  { name: 'a POST from another site with Origin only', headers: { Origin: 'https://evil.example' }, status: 403 },
  { name: 'a POST with Origin: null (sandboxed frame, data: URL)', headers: { Origin: 'null' }, status: 403 },
  { name: 'a same-site (sibling subdomain) POST without Origin', headers: { 'Sec-Fetch-Site': 'same-site' }, status: 403 },
  { name: 'a same-origin POST', headers: { 'Sec-Fetch-Site': 'same-origin', Origin: 'http://game.example' }, status: 200 },
  { name: 'a POST whose Origin is the app\'s own', headers: { Origin: 'http://game.example' }, status: 200 },
  { name: 'a POST from an allowed origin', headers: { Origin: 'https://events.example.com', 'Sec-Fetch-Site': 'cross-site' }, status: 200 },
  { name: 'a POST from a client that is not a browser (no Origin, no Sec-Fetch-Site)', headers: {}, status: 200 },
  { name: 'a cross-site GET (safe method)', method: 'get', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' }, status: 200 },
  // Same origin is scheme, host and port: the browser's own "cross-site" or "same-site" wins over a host that matches.
  { name: 'a POST the browser calls cross-site, whose Origin names the app\'s host', headers: { Origin: 'http://game.example', 'Sec-Fetch-Site': 'cross-site' }, status: 403 },
  { name: 'a same-site POST from the app\'s host on another scheme', headers: { Origin: 'https://game.example', 'Sec-Fetch-Site': 'same-site' }, status: 403 },
  { name: 'a POST whose Origin is the app\'s host on another scheme (no Sec-Fetch-Site)', headers: { Origin: 'https://game.example' }, status: 403 },
  { name: 'a POST whose Origin is the app\'s host on another port (no Sec-Fetch-Site)', headers: { Origin: 'http://game.example:8080' }, status: 403 },
  { name: 'a cross-site POST from an allowed host on another scheme', headers: { Origin: 'http://events.example.com', 'Sec-Fetch-Site': 'cross-site' }, status: 403 },
  { name: 'a same-site POST from an allowed origin', headers: { Origin: 'https://events.example.com', 'Sec-Fetch-Site': 'same-site' }, status: 200 },
  { name: 'a POST whose Origin is the app\'s own with an explicit default port', headers: { Origin: 'http://game.example:80' }, status: 200 },
];

describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  describe.each(MODES)('cookie tokens on unsafe methods through %s', (mode) => {
    it.each(CASES)('$name -> $status', async ({ method = 'post', headers, status }) => {
      const client = fakeVerifier();
      const app = buildApp(expressFn, { mode, passport, auth: { client, tokenFrom: { cookie: 'SUAT' }, allowedOrigins: ['https://events.example.com'] } });
      const agent = request(app);
      const req = method === 'get' ? agent.get('/api/me') : agent.post('/api/me');
      const res = await req.set('Host', 'game.example').set('Cookie', COOKIE).set(headers);
      if (status === 403) {
        expect(res.status).toBe(403);
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(res.body).toMatchObject({ status: 403, action: 'denied', type: 'urn:passport-game-platform:problem:cross_site' });
        expect(res.headers['www-authenticate']).toBeUndefined();
        expect(client.calls).toEqual([]);
      } else {
        expect(res.status).toBe(200);
        expect(res.body.member_no).toBe(FAKE_USER.memberNo);
      }
    });

    it('leaves a bearer header alone: it is not sent by the browser on its own', async () => {
      const client = fakeVerifier();
      const app = buildApp(expressFn, { mode, passport, auth: { client, tokenFrom: { cookie: 'SUAT' } } });
      const res = await request(app).post('/api/me').set('Authorization', 'Bearer okTok').set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site');
      expect(res.status).toBe(200);
    });
  });
});

describe('cookie tokens on a WebSocket upgrade (cross-site WebSocket hijacking)', () => {
  const upgrade = (origin?: string): AuthRequest => ({
    method: 'GET', url: '/ws',
    headers: { host: 'game.example', upgrade: 'websocket', connection: 'Upgrade', cookie: 'SUAT=okWeb', ...(origin === undefined ? {} : { origin }) },
  });

  it.each<[string, string | undefined, number | 'ok']>([
    ['another site', 'https://evil.example', 403],
    ['the app itself', 'http://game.example', 'ok'],
    ['the app\'s host on another scheme', 'https://game.example', 403],
    ['an allowed origin', 'https://events.example.com', 'ok'],
    ['a client that is not a browser (no Origin)', undefined, 'ok'],
  ])('an upgrade from %s -> %s, through the callable and .token()', async (_name, origin, answer) => {
    const client = fakeVerifier();
    const authenticate = createAuthenticator({ client, tokenFrom: { cookie: 'SUAT' }, allowedOrigins: ['https://events.example.com'] });
    for (const attempt of [() => authenticate(upgrade(origin)), () => authenticate.token('okWeb', { source: 'cookie', req: upgrade(origin) })]) {
      if (answer === 'ok') await expect(attempt()).resolves.toMatchObject({ memberNo: FAKE_USER.memberNo });
      else await expect(attempt()).rejects.toMatchObject({ status: 403, kind: 'cross_site', action: 'denied' });
    }
    expect(client.calls).toHaveLength(answer === 'ok' ? 2 : 0);
  });
});

describe.each(EXPRESS_VERSIONS)('%s behind a TLS proxy (trust proxy)', (_version, expressFn) => {
  // The app is served on https: what Express's `trust proxy` reads from X-Forwarded-Proto.
  it.each<[string, Record<string, string>, number]>([
    ['a cross-site POST whose Origin is the same host on http', { Host: 'events.example.com', Origin: 'http://events.example.com', 'Sec-Fetch-Site': 'cross-site' }, 403],
    ['a POST from the app\'s own https origin (no Sec-Fetch-Site)', { Host: 'game.example', Origin: 'https://game.example' }, 200],
    ['a POST from the app\'s host on http (no Sec-Fetch-Site)', { Host: 'game.example', Origin: 'http://game.example' }, 403],
  ])('%s -> %s, with no write', async (_name, headers, status) => {
    const client = fakeVerifier();
    const app = buildApp(expressFn, { mode: 'requireGameUser', auth: { client, tokenFrom: { cookie: 'SUAT' }, allowedOrigins: ['https://events.example.com'] } });
    app.set('trust proxy', true);
    const res = await request(app).post('/api/me').set('X-Forwarded-Proto', 'https').set('Cookie', COOKIE).set(headers);
    expect(res.status).toBe(status);
    expect(client.calls).toHaveLength(status === 200 ? 1 : 0);
  });
});

describe('allowedOrigins is checked once, with a message naming it', () => {
  it.each<[string, unknown]>([['a string', 'https://a.example'], ['a URL with a path', ['https://a.example/x']], ['not a URL', ['events']], ['a trailing slash', ['https://a.example/']]])(
    'rejects %s', (_name, allowedOrigins) => {
      expect(() => createAuthenticator({ client: fakeVerifier(), tokenFrom: { cookie: 'SUAT' }, allowedOrigins: allowedOrigins as string[] }))
        .toThrow(new TypeError("createAuthenticator: options.allowedOrigins must be an array of origins such as 'https://events.example.com'"));
    },
  );
});
