import type { RequestHandler } from 'express';
import request from 'supertest';
import { platformErrorHandler } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { EXPRESS_VERSIONS, loadPassport, recordingLogger } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

describe.each(EXPRESS_VERSIONS)('plain passport.authenticate() on %s', (_version, expressFn) => {
  async function app(authOptions: Record<string, unknown>, { initialize = false, handler = true } = {}) {
    const passport = await loadPassport();
    passport.use(new PlatformBearerStrategy({ client: fakeVerifier(), logger: recordingLogger() }));
    const a = expressFn();
    if (initialize) a.use(passport.initialize() as RequestHandler);
    a.get('/me', passport.authenticate('game-platform', authOptions) as RequestHandler, (req, res) => {
      res.json(req.user);
    });
    if (handler) a.use(platformErrorHandler({ logger: recordingLogger() }));
    return a;
  }

  it.each([false, true])('succeeds without { session: false } and without a session store (passport turns sessions on by default), initialize: %p', async (initialize) => {
    const res = await request(await app({}, { initialize })).get('/me').set('Authorization', 'Bearer okTok');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ memberNo: expect.any(String) });
  });

  it('renders the full problem through failWithError', async () => {
    const res = await request(await app({ session: false, failWithError: true })).get('/me').set('Authorization', 'Bearer code46217');
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ action: 'register_device', code: 46217 });
  });

  it('without failWithError, passport answers 401 with our challenge', async () => {
    const res = await request(await app({ session: false }, { handler: false })).get('/me').set('Authorization', 'Bearer code40000');
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
  });

  it('a platform outage still goes to next(err), never to a 401', async () => {
    const res = await request(await app({ session: false })).get('/me').set('Authorization', 'Bearer down');
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
  });
});
