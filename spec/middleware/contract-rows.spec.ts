import request from 'supertest';
import { EXPRESS_VERSIONS, buildApp, loadPassport, type GuardMode } from '../support/http-apps.js';
import { FAKE_USER, fakeVerifier } from '../support/http-fake-verifier.js';

const passport = await loadPassport();
const MODES: GuardMode[] = passport ? ['requireGameUser', 'passport'] : ['requireGameUser'];
if (!passport) console.warn('passport is not installed: the passport.authenticate() rows are skipped');

const BARE = 'Bearer realm="game-platform"';
const IR = /^Bearer realm="game-platform", error="invalid_request"/;
const IT = /^Bearer realm="game-platform", error="invalid_token"/;

interface Row {
  name: string;
  auth?: string;
  status: number;
  action: string;
  code?: number;
  challenge?: string | RegExp;
  retryAfter?: boolean;
  calls: number;
}

// CONTRACT section 2, row by row, against a fake client that answers as
// PlatformClient does after its retries.
const ROWS: Row[] = [
  { name: 'no credentials at all', status: 401, action: 'login', challenge: BARE, calls: 0 },
  { name: 'another scheme', auth: 'Basic dXNlcjpwYXNz', status: 401, action: 'login', challenge: BARE, calls: 0 },
  { name: 'Bearer with no token', auth: 'Bearer', status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'extra parts', auth: 'Bearer ok1 ok2', status: 400, action: 'login', challenge: IR, calls: 0 },
  { name: 'characters outside b64token', auth: 'Bearer ok"1', status: 401, action: 'relogin', challenge: IT, calls: 0 },
  { name: 'a token over 4096 characters', auth: `Bearer ok${'a'.repeat(4095)}`, status: 401, action: 'relogin', challenge: IT, calls: 0 },
  { name: 'platform 40000', auth: 'Bearer code40000', status: 401, action: 'relogin', code: 40000, challenge: IT, calls: 1 },
  { name: 'platform 46217', auth: 'Bearer code46217', status: 403, action: 'register_device', code: 46217, calls: 1 },
  { name: 'platform unreachable', auth: 'Bearer down', status: 503, action: 'retry_later', retryAfter: true, calls: 1 },
  { name: 'platform 50000 after retries', auth: 'Bearer code50000', status: 503, action: 'retry_later', code: 50000, retryAfter: true, calls: 1 },
  { name: 'platform 40105', auth: 'Bearer code40105', status: 500, action: 'contact_support', code: 40105, calls: 1 },
  { name: 'platform 41002', auth: 'Bearer code41002', status: 500, action: 'contact_support', code: 41002, calls: 1 },
  { name: 'platform 40101 after one reissue', auth: 'Bearer code40101', status: 500, action: 'contact_support', code: 40101, calls: 1 },
];

describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  describe.each(MODES)('through %s', (mode) => {
    it.each(ROWS)('$name -> $status $action', async (row) => {
      const client = fakeVerifier();
      const app = buildApp(expressFn, { mode, passport: await loadPassport(), auth: { client } });
      const req = request(app).get('/api/me');
      if (row.auth !== undefined) req.set('Authorization', row.auth);
      const res = await req;
      expect(res.status).toBe(row.status);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toMatchObject({ status: row.status, action: row.action, title: expect.any(String), type: expect.any(String), detail: expect.any(String) });
      if (row.code === undefined) expect(res.body).not.toHaveProperty('code');
      else expect(res.body.code).toBe(row.code);
      if (row.challenge === undefined) expect(res.headers['www-authenticate']).toBeUndefined();
      else if (typeof row.challenge === 'string') expect(res.headers['www-authenticate']).toBe(row.challenge);
      else expect(res.headers['www-authenticate']).toMatch(row.challenge);
      if (row.retryAfter) expect(res.headers['retry-after']).toMatch(/^\d+$/);
      else expect(res.headers['retry-after']).toBeUndefined();
      expect(client.calls).toHaveLength(row.calls);
      expect(JSON.stringify(res.body)).not.toMatch(/PLATFORM_|stack|at \//);
    });

    it('answers 200 with req.user for a valid token', async () => {
      const client = fakeVerifier();
      const app = buildApp(expressFn, { mode, passport: await loadPassport(), auth: { client } });
      const res = await request(app).get('/api/me').set('Authorization', 'bearer   okToken');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ member_no: FAKE_USER.memberNo, guid: FAKE_USER.guid, user: FAKE_USER });
      expect(client.calls).toEqual([{ method: 'user', token: 'okToken' }]);
    });
  });
});
