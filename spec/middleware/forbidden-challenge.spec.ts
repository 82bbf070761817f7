import type { RequestHandler } from 'express';
import request from 'supertest';
import { accessDenied } from '../../lib/auth/access-denied.js';
import { platformErrorHandler, requireGameUser } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { EXPRESS_VERSIONS, loadPassport, recordingLogger } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// RFC 6750 section 3 asks for WWW-Authenticate whenever the token does not
// enable access: the 403s of authorize and verify-callback denials say
// insufficient_scope. 46217 has none: the token is fine, the device is not
// registered, and no RFC 6750 error code says that.

const passport = await loadPassport();
const INSUFFICIENT = 'Bearer realm="my-game", error="insufficient_scope"';

describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  function appWith(guard: RequestHandler) {
    const app = expressFn();
    app.get('/admin', guard, (_req, res) => { res.end(); });
    app.use(platformErrorHandler({ logger: recordingLogger() }));
    return app;
  }

  async function expectInsufficientScope(guard: RequestHandler): Promise<void> {
    const res = await request(appWith(guard)).get('/admin').set('Authorization', 'Bearer okTok');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ action: 'denied' });
    expect(res.headers['www-authenticate']).toBe(INSUFFICIENT);
  }

  it.each<[string, () => boolean | void]>([
    ['authorize returns false', () => false],
    ['authorize throws accessDenied()', () => { throw accessDenied({ code: 9001, detail: 'Account suspended.' }); }],
  ])('answers 403 with insufficient_scope when %s (requireGameUser)', async (_name, authorize) => {
    await expectInsufficientScope(requireGameUser({ client: fakeVerifier(), realm: 'my-game', authorize }));
  });

  it('answers 403 with insufficient_scope when a Passport verify callback denies', async () => {
    passport.use('deny', new PlatformBearerStrategy({ client: fakeVerifier(), realm: 'my-game' }, (_user, done) => done(null, false)));
    await expectInsufficientScope(passport.authenticate('deny', { session: false, failWithError: true }) as RequestHandler);
  });

  it('keeps 46217 (device not registered) without a challenge: the token is fine', async () => {
    const res = await request(appWith(requireGameUser({ client: fakeVerifier(), realm: 'my-game' }))).get('/admin').set('Authorization', 'Bearer code46217');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ action: 'register_device', code: 46217 });
    expect(res.headers['www-authenticate']).toBeUndefined();
  });
});
