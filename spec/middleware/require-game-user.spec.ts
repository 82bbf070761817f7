import type { RequestHandler } from 'express';
import request from 'supertest';
import { platformErrorHandler, requireGameUser } from '../../lib/middleware/index.js';
import { EXPRESS_VERSIONS, loadPassport, recordingLogger } from '../support/http-apps.js';
import { FAKE_USER, fakeVerifier } from '../support/http-fake-verifier.js';

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => void unhandled.push(reason);
beforeAll(() => process.on('unhandledRejection', onUnhandled));
afterAll(() => process.off('unhandledRejection', onUnhandled));

describe.each(EXPRESS_VERSIONS)('requireGameUser on %s', (_version, expressFn) => {
  it('needs no passport.initialize() and works beside it', async () => {
    const passport = await loadPassport();
    for (const withInitialize of [false, true]) {
      const app = expressFn();
      if (withInitialize) app.use(passport.initialize() as RequestHandler);
      app.get('/me', requireGameUser({ client: fakeVerifier() }), (req, res) => { res.json(req.user); });
      const res = await request(app).get('/me').set('Authorization', 'Bearer okTok');
      expect(res.body).toEqual(FAKE_USER);
    }
  });

  it('calls next exactly once per request, whatever the outcome, and leaves no unhandled rejection', async () => {
    const calls: string[] = [];
    const app = expressFn();
    const guard = requireGameUser({ client: fakeVerifier(), logger: recordingLogger() });
    app.get('/me', (req, res, next) => guard(req, res, (err?: unknown) => {
      calls.push(err === undefined ? 'ok' : 'err');
      next(err);
    }), (_req, res) => { res.end(); });
    app.use(platformErrorHandler({ logger: recordingLogger() }));
    const tokens = ['okA', 'code40000', 'code46217', 'down', 'code40105', 'whatever', 'a<b'];
    for (const token of tokens) await request(app).get('/me').set('Authorization', `Bearer ${token}`);
    await new Promise((r) => setTimeout(r, 50));
    expect(calls).toEqual(['ok', 'err', 'err', 'err', 'err', 'err', 'err']);
    expect(unhandled).toEqual([]);
  });

  it('answers 500 (not a hang) when a hook throws asynchronously', async () => {
    const app = expressFn();
    app.get('/me', requireGameUser({
      client: fakeVerifier(),
      logger: recordingLogger(),
      authorize: async () => { await Promise.resolve(); throw new Error('sanction service timed out'); },
    }), (_req, res) => { res.end(); });
    app.use(platformErrorHandler({ logger: recordingLogger() }));
    const res = await request(app).get('/me').set('Authorization', 'Bearer okTok');
    expect(res.status).toBe(500);
    expect(res.text).not.toContain('sanction service');
  });

  it('uses its realm in the challenge the handler renders', async () => {
    const app = expressFn();
    app.get('/me', requireGameUser({ client: fakeVerifier(), realm: 'my-game' }), (_req, res) => { res.end(); });
    app.use(platformErrorHandler());
    const res = await request(app).get('/me');
    expect(res.headers['www-authenticate']).toBe('Bearer realm="my-game"');
  });
});

describe('requireGameUser options', () => {
  it.each<[string, unknown, string]>([
    ['no client', {}, 'requireGameUser: options.client must have a verifyUserToken(token) method (a PlatformClient)'],
    ['passReqToCallback', { client: fakeVerifier(), passReqToCallback: true }, 'requireGameUser: options.passReqToCallback is not supported; use mapUser or authorize, which receive req'],
  ])('rejects %s at construction', (_name, options, message) => {
    expect(() => requireGameUser(options as never)).toThrow(new TypeError(message));
  });
});
