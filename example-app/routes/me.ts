import type { Express } from 'express';
import { requireGameUser } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { memberBody } from '../member-body.js';

/**
 * `GET /api/me`: the player of the bearer token (E2). Registered on the app itself, not through a
 * Router of its own: every request of the busiest route would otherwise pay a second router's
 * matching (its layer, its path trimming, its `next` loop) for nothing.
 */
export function addMeRoute(app: Express, config: ResolvedAppConfig): void {
  const auth = requireGameUser({ client: config.client, realm: config.realm, logger: config.logger });
  app.get('/api/me', auth, (req, res) => {
    res.set('Cache-Control', 'no-store').json(memberBody(req.user!));
  });
}
