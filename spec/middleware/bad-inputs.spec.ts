import request from 'supertest';
import { EXPRESS_VERSIONS, buildApp, listen, loadPassport, type GuardMode } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';
import { headerOf as header, sendRaw } from '../support/raw-http.js';

const MODES: GuardMode[] = ['requireGameUser', 'passport'];

const IR = /error="invalid_request"/;
const IT = /error="invalid_token"/;
const BARE = 'Bearer realm="game-platform"';

// The bad-input rows (spec/reliability/support/bad-input-rows.ts), over real HTTP.
describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  describe.each(MODES)('bad inputs through %s', (mode) => {
    let client: ReturnType<typeof fakeVerifier>;
    let server: Awaited<ReturnType<typeof listen>>;
    const app = async (tokenFrom?: { query?: boolean; body?: boolean }) => {
      client = fakeVerifier();
      return buildApp(expressFn, { mode, passport: await loadPassport(), auth: { client, tokenFrom } });
    };
    afterEach(async () => server?.close());

    it.each<[string, (string | Buffer)[], number, string | RegExp | undefined]>([
      ['row 2: an empty Authorization', ['Authorization:'], 401, BARE],
      ['row 3: Bearer with trailing spaces', ['Authorization: Bearer    '], 400, IR],
      ['row 5: two spaces and surrounding whitespace', ['Authorization:   Bearer  okRaw  '], 200, undefined],
      ['row 6: a tab after the scheme', ['Authorization: Bearer\tokRaw'], 400, IR],
      ['row 6: a NBSP byte after the scheme', [Buffer.from('Authorization: Bearer\xa0okRaw', 'latin1')], 400, IR],
      ['row 6: UTF-8 NBSP after the scheme', [Buffer.from('Authorization: Bearer\u00a0okRaw', 'utf8')], 400, IR],
      ['row 8: UTF-8 in the token', [Buffer.from('Authorization: Bearer okRaw\u00e9', 'utf8')], 401, IT],
      ['row 12: two Authorization headers, bad then good', ['Authorization: Bearer bad', 'Authorization: Bearer okRaw'], 400, IR],
      ['row 12: two Authorization headers, good then bad', ['Authorization: Bearer okRaw', 'Authorization: Bearer bad'], 400, IR],
      ['row 12: two Authorization headers, different case', ['authorization: Bearer okRaw', 'AUTHORIZATION: Bearer okRaw'], 400, IR],
    ])('%s', async (_name, lines, status, challenge) => {
      server = await listen(await app());
      const res = await sendRaw(server.port, { lines });
      expect(res.status).toBe(status);
      if (challenge === undefined) expect(header(res, 'www-authenticate')).toBeUndefined();
      else if (typeof challenge === 'string') expect(header(res, 'www-authenticate')).toBe(challenge);
      else expect(header(res, 'www-authenticate')).toMatch(challenge);
      expect(client.calls).toHaveLength(status === 200 ? 1 : 0);
    });

    it('row 10: a header over 16 KiB gets Node\'s 431, no call, and the server lives on', async () => {
      server = await listen(await app());
      const res = await sendRaw(server.port, { lines: [`Authorization: Bearer ok${'a'.repeat(17_000)}`] });
      expect(res.status).toBe(431);
      expect(client.calls).toHaveLength(0);
      expect((await sendRaw(server.port, { lines: ['Authorization: Bearer okAfter'] })).status).toBe(200);
    });

    it.each([['NUL', '\0'], ['a bare CR', '\r'], ['a control character', '\x01']])('row 11: %s in the header gets Node\'s 400, no crash', async (_name, ch) => {
      server = await listen(await app());
      const res = await sendRaw(server.port, { lines: [`Authorization: Bearer ok${ch}x`] });
      expect(res.status).toBe(400);
      expect(client.calls).toHaveLength(0);
      expect((await sendRaw(server.port, { lines: ['Authorization: Bearer okAfter'] })).status).toBe(200);
    });

    it.each<[string, string, number]>([
      ['row 13: Bearer undefined', 'Bearer undefined', 401],
      ['row 13: Bearer null', 'Bearer null', 401],
      ['row 9: 4097 characters', `Bearer ${'a'.repeat(4097)}`, 401],
      ['row 7: Bearerx', 'Bearerx okX', 401],
      ['row 7: Token', 'Token okX', 401],
      ['row 6: Bearer a, Bearer b', 'Bearer okA, Bearer okB', 400],
    ])('%s: answers %i without a call', async (_name, auth, status) => {
      const res = await request(await app()).get('/api/me').set('Authorization', auth);
      expect(res.status).toBe(status);
      expect(client.calls).toHaveLength(0);
    });

    it.each<[string, string, number]>([
      ['row 14: ?access_token while query tokens are off', '/api/me?access_token=okQ', 400],
      ['row 15: a repeated parameter', '/api/me?access_token=okA&access_token=okB', 400],
      ['row 15: a nested parameter', '/api/me?access_token[a]=1', 400],
    ])('%s: 400 invalid_request, no call', async (_name, path, status) => {
      for (const tokenFrom of [undefined, { query: true }]) {
        if (path.endsWith('=okQ') && tokenFrom) continue;
        const res = await request(await app(tokenFrom)).get(path);
        expect(res.status).toBe(status);
        expect(res.headers['www-authenticate']).toMatch(IR);
        expect(client.calls).toHaveLength(0);
      }
    });

    it('accepts a query token when enabled', async () => {
      const res = await request(await app({ query: true })).get('/api/me?access_token=okQuery');
      expect(res.status).toBe(200);
      expect(client.calls).toEqual([{ method: 'user', token: 'okQuery' }]);
    });

    it('row 16: header plus query or form token: 400, no call', async () => {
      const a = await app({ query: true, body: true });
      expect((await request(a).get('/api/me?access_token=okQ').set('Authorization', 'Bearer okH')).status).toBe(400);
      const form = await request(a).post('/api/me').set('Authorization', 'Bearer okH').type('form').send('access_token=okB');
      expect(form.status).toBe(400);
      expect(client.calls).toHaveLength(0);
    });

    it('row 17: a form token on POST only when enabled; never on GET; never multipart', async () => {
      expect((await request(await app()).post('/api/me').type('form').send('access_token=okB')).status).toBe(400);
      const enabled = await app({ body: true });
      expect((await request(enabled).post('/api/me').type('form').send('access_token=okB')).status).toBe(200);
      expect((await request(enabled).get('/api/me').type('form').send('access_token=okB')).status).toBe(400);
      expect(client.calls).toEqual([{ method: 'user', token: 'okB' }]);
    });

    it.each<[string, unknown]>([
      ['a string', { access_token: 'okJson' }],
      ['a number', { access_token: 1 }],
      ['an array', { access_token: ['okA', 'okB'] }],
      ['an object', { access_token: { a: 1 } }],
      ['true', { access_token: true }],
    ])('row 18: a JSON body access_token (%s) is ignored', async (_name, body) => {
      const a = await app({ body: true, query: true });
      const bare = await request(a).post('/api/me').send(body as object);
      expect(bare.status).toBe(401);
      expect(bare.headers['www-authenticate']).toBe(BARE);
      const withHeader = await request(a).post('/api/me').set('Authorization', 'Bearer okH').send(body as object);
      expect(withHeader.status).toBe(200);
      expect(client.calls).toEqual([{ method: 'user', token: 'okH' }]);
    });

    it('row 18: an access_token under __proto__ is ignored', async () => {
      const res = await request(await app({ body: true })).post('/api/me').type('json').send('{"__proto__":{"access_token":"okP"}}');
      expect(res.status).toBe(401);
      expect(client.calls).toHaveLength(0);
    });

    it('row 19: malformed JSON and a 1 MB body answer 400/413 problems without a stack', async () => {
      const a = await app();
      const bad = await request(a).post('/api/me').type('json').send('{"access_token": "okSecretInBody",');
      expect(bad.status).toBe(400);
      expect(bad.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(bad.body).toMatchObject({ status: 400, title: 'Malformed request body' });
      expect(bad.text).not.toMatch(/okSecretInBody|at .*\.js|SyntaxError/);
      const big = await request(a).post('/api/me').type('json').send(JSON.stringify({ x: 'a'.repeat(1_000_000) }));
      expect(big.status).toBe(413);
      expect(big.body).toMatchObject({ status: 413, title: 'Request body too large' });
      expect(big.headers['www-authenticate']).toBeUndefined();
    });

    it('row 20: a path-like token is verified and stays out of any URL', async () => {
      const res = await request(await app()).get('/api/me').set('Authorization', 'Bearer ../../admin');
      expect(res.status).toBe(500); // the fake throws a foreign error for unknown tokens
      expect(client.calls).toEqual([{ method: 'user', token: '../../admin' }]);
    });

    it('row 21: an OPTIONS preflight without credentials is left to CORS', async () => {
      // This app mounts no CORS middleware: Express answers OPTIONS for the GET/POST routes itself.
      const res = await request(await app()).options('/api/me').set('Access-Control-Request-Method', 'GET');
      expect(res.status).toBe(200);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(client.calls).toHaveLength(0);
    });
  });
});
