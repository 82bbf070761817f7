import type { RequestHandler } from 'express';
import request from 'supertest';
import { platformErrorHandler, requireGameUser } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { EXPRESS_VERSIONS, loadPassport, recordingLogger } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// An OPTIONS request that looks like a preflight (Access-Control-Request-Method,
// no Authorization) is still authenticated: passed on, an app.all() route or
// a proxy mounted behind app.use('/api', requireGameUser()) would run as
// nobody. Real preflights are the CORS middleware's to answer, before ours.

const passport = await loadPassport();
type Guard = () => RequestHandler;
passport.use('preflight-test', new PlatformBearerStrategy({ client: fakeVerifier(), logger: recordingLogger() }));
const GUARDS: [string, Guard][] = [
  ['requireGameUser', () => requireGameUser({ client: fakeVerifier(), logger: recordingLogger() })],
  ['passport', () => passport.authenticate('preflight-test', { session: false, failWithError: true }) as RequestHandler],
];

// What a CORS middleware does with a real preflight: answer it, never call next().
const cors: RequestHandler = (req, res, next) => {
  if (req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined) {
    res.set({ 'Access-Control-Allow-Origin': 'https://game.example', 'Access-Control-Allow-Headers': 'Authorization' }).status(204).end();
    return;
  }
  next();
};

describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  describe.each(GUARDS)('a preflight lookalike through %s', (_name, guard) => {
    it('never reaches an app.all() route unauthenticated', async () => {
      let ran = false;
      const app = expressFn();
      app.all('/api/admin', guard(), (_req, res) => { ran = true; res.json({ secret: 'admin data' }); });
      app.use(platformErrorHandler({ logger: recordingLogger() }));
      const res = await request(app).options('/api/admin').set('Origin', 'https://evil.example').set('Access-Control-Request-Method', 'POST');
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="game-platform"');
      expect(ran).toBe(false);
    });

    it('never reaches a proxy mounted behind app.use(\'/api\', guard) unauthenticated', async () => {
      const reached: string[] = [];
      const app = expressFn();
      app.use('/api', guard());
      app.use('/api', (req, res) => { reached.push(`${req.method} ${req.url}`); res.end('proxied'); });
      app.use(platformErrorHandler({ logger: recordingLogger() }));
      const res = await request(app).options('/api/anything').set('Access-Control-Request-Method', 'DELETE');
      expect(res.status).toBe(401);
      expect(reached).toEqual([]);
    });

    it('leaves real preflights to a CORS middleware mounted before it', async () => {
      const client = fakeVerifier();
      let ran = false;
      const app = expressFn();
      app.use(cors);
      app.all('/api/me', guard(), (_req, res) => { ran = true; res.end(); });
      app.use(platformErrorHandler({ logger: recordingLogger() }));
      const res = await request(app).options('/api/me').set('Origin', 'https://game.example').set('Access-Control-Request-Method', 'GET');
      expect(res.status).toBe(204);
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.headers['access-control-allow-origin']).toBe('https://game.example');
      expect(ran).toBe(false);
      expect(client.calls).toHaveLength(0);
    });
  });
});
