import type { Express } from 'express';
import { requireGameUser } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { memberBody } from '../member-body.js';

/**
 * `GET /api/me`: the player of the bearer token (E2). Registered on the app
 * itself, not on a `Router` of its own: every request to a route inside a
 * mounted router pays that router's dispatch too (1.1 to 1.4 µs measured),
 * and this is the route every player calls.
 */
export function addMeRoute(app: Express, config: ResolvedAppConfig): void {
  const auth = requireGameUser({ client: config.client, realm: config.realm, logger: config.logger });
  app.get('/api/me', auth, (req, res) => {
    res.set('Cache-Control', 'no-store').json(memberBody(req.user!));
  });
  // What a Router answers by itself for a path it knows: a CORS preflight carries no
  // credentials, so it gets the route's methods and no challenge.
  app.options('/api/me', (_req, res) => {
    res.set({ Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end('GET, HEAD');
  });
}
