import type { Express } from 'express';
import request from 'supertest';
import { platformErrorHandler, requireGameUser } from '../../lib/index.js';
import { EXPRESS_VERSIONS, recordingLogger } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// Cookie-authenticated writes a page on another origin could make the browser send. Each is
// refused (403 cross_site) before any verification, so the route's write never runs.

interface Shape {
  name: string;
  method?: 'post' | 'put' | 'patch' | 'delete';
  path?: string;
  headers: Record<string, string>;
  body?: string;
  https?: boolean;
}

const SHAPES: Shape[] = [
  { name: 'another site, cross-site', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'another site, Origin only', headers: { Origin: 'https://evil.example' } },
  { name: 'Origin null', headers: { Origin: 'null' } },
  { name: 'Origin null, cross-site', headers: { Origin: 'null', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'same-site without Origin', headers: { 'Sec-Fetch-Site': 'same-site' } },
  { name: 'a sibling subdomain', headers: { Origin: 'http://events.game.example', 'Sec-Fetch-Site': 'same-site' } },
  { name: 'a sibling subdomain without Sec-Fetch-Site', headers: { Origin: 'http://events.game.example' } },
  { name: 'the app\'s host as a subdomain of another site', headers: { Origin: 'http://game.example.evil.example' } },
  { name: 'host@evil', headers: { Origin: 'http://game.example@evil.example' } },
  { name: 'the app\'s host on https, served on http', headers: { Origin: 'https://game.example' } },
  { name: 'the app\'s host, browser says cross-site', headers: { Origin: 'http://game.example', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'the app\'s host on another port', headers: { Origin: 'http://game.example:8080' } },
  { name: 'the app\'s host with a trailing dot', headers: { Origin: 'http://game.example.' } },
  { name: 'an allowed host on another scheme', headers: { Origin: 'http://events.example.com', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'an allowed host on another port', headers: { Origin: 'https://events.example.com:444', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'a method override in the query', path: '/api/me?_method=GET', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'a method override header', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'X-HTTP-Method-Override': 'GET' } },
  { name: 'a text/plain form', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'Content-Type': 'text/plain' }, body: 'a=1' },
  { name: 'a urlencoded form', headers: { Origin: 'https://evil.example', 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'a=1' },
  { name: 'a PUT', method: 'put', headers: { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'a DELETE', method: 'delete', headers: { Origin: 'https://evil.example' } },
  { name: 'a PATCH', method: 'patch', headers: { 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'an https app (trust proxy), same host on http, cross-site', https: true, headers: { Origin: 'http://game.example', 'Sec-Fetch-Site': 'cross-site' } },
  { name: 'an https app (trust proxy), same host on http', https: true, headers: { Origin: 'http://game.example' } },
  { name: 'an unparsable Origin', headers: { Origin: 'http://[game.example' } },
];

/** A route that writes on every method, behind the cookie guard; `writes()` counts what it wrote. */
function writingApp(expressFn: (typeof EXPRESS_VERSIONS)[number][1], https = false): { app: Express; client: ReturnType<typeof fakeVerifier>; writes: () => number } {
  const client = fakeVerifier();
  let writes = 0;
  const app = expressFn();
  if (https) app.set('trust proxy', true);
  app.use(expressFn.text(), expressFn.urlencoded({ extended: false }));
  app.all('/api/me', requireGameUser({ client, tokenFrom: { cookie: 'SUAT' }, allowedOrigins: ['https://events.example.com'] }), (_req, res) => {
    writes += 1;
    res.status(204).end();
  });
  app.use(platformErrorHandler({ logger: recordingLogger() }));
  return { app, client, writes: () => writes };
}

describe.each(EXPRESS_VERSIONS)('%s: cookie-authenticated writes from elsewhere', (_version, expressFn) => {
  it.each(SHAPES)('$name: 403 cross_site, nothing verified or written', async ({ method = 'post', path = '/api/me', headers, body, https }) => {
    const { app, client, writes } = writingApp(expressFn, https);
    const agent = request(app);
    let req = (method === 'post' ? agent.post(path) : method === 'put' ? agent.put(path) : method === 'patch' ? agent.patch(path) : agent.delete(path))
      .set('Host', 'game.example').set('Cookie', 'SUAT=okWeb').set(headers);
    if (https === true) req = req.set('X-Forwarded-Proto', 'https');
    const res = await (body === undefined ? req : req.send(body));
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ status: 403, action: 'denied', type: 'urn:passport-game-platform:problem:cross_site' });
    expect(client.calls).toEqual([]);
    expect(writes()).toBe(0);
  });

  it('the same route takes a same-origin write and a listed origin\'s (so the refusals above are the rule, not a broken route)', async () => {
    const { app, writes } = writingApp(expressFn);
    for (const headers of [{ 'Sec-Fetch-Site': 'same-origin', Origin: 'http://game.example' }, { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://events.example.com' }, { Origin: 'http://game.example' }]) {
      const res = await request(app).post('/api/me').set('Host', 'game.example').set('Cookie', 'SUAT=okWeb').set(headers);
      expect(res.status).toBe(204);
    }
    expect(writes()).toBe(3);
  });
});
