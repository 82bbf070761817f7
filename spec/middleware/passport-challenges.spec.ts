import type { Request, RequestHandler } from 'express';
import { Strategy } from 'passport-strategy';
import request from 'supertest';
import { platformErrorHandler } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { EXPRESS_VERSIONS, loadPassport, recordingLogger } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// With passport.authenticate(['basic', 'game-platform'], { failWithError: true }),
// passport sends every strategy's challenge: our error handler keeps them all
// rather than replacing them with ours.

/** A stand-in for passport-http's BasicStrategy: no Basic credentials -> fail with its challenge. */
class BasicLike extends Strategy {
  name = 'basic';
  override authenticate(this: BasicLike & { fail(challenge: string, status?: number): void; success(user: object): void }, req: Request): void {
    if (req.headers.authorization?.startsWith('Basic dXNlcjpwdw==')) return this.success({ memberNo: 'basic', guid: null });
    this.fail('Basic realm="Users"');
  }
}

const passport = await loadPassport();

describe.each(EXPRESS_VERSIONS)('several strategies on %s', (_version, expressFn) => {
  function app() {
    passport.use(new BasicLike());
    passport.use(new PlatformBearerStrategy({ client: fakeVerifier(), logger: recordingLogger() }));
    const a = expressFn();
    a.get('/me', passport.authenticate(['basic', 'game-platform'], { session: false, failWithError: true }) as RequestHandler, (req, res) => { res.json(req.user); });
    a.use(platformErrorHandler({ logger: recordingLogger() }));
    return a;
  }

  it('sends every strategy\'s challenge when both fail', async () => {
    const res = await request(app()).get('/me');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Basic realm="Users", Bearer realm="game-platform"');
    expect(res.body).toMatchObject({ status: 401, action: 'login' });
  });

  it('keeps the other challenge beside ours for a bad bearer token', async () => {
    const res = await request(app()).get('/me').set('Authorization', 'Bearer code40000');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="Users", Bearer realm="game-platform", error="invalid_token"/);
    expect(res.body).toMatchObject({ action: 'relogin', code: 40000 });
  });

  it('lets the other strategy succeed', async () => {
    const res = await request(app()).get('/me').set('Authorization', 'Basic dXNlcjpwdw==');
    expect(res.status).toBe(200);
  });
});
