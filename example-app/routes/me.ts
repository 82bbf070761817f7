import { Router } from 'express';
import { requireGameUser } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { memberBody } from '../member-body.js';

/** `GET /api/me`: the player of the bearer token (E2). */
export function meRoutes(config: ResolvedAppConfig): Router {
  const router = Router();
  const auth = requireGameUser({ client: config.client, realm: config.realm, logger: config.logger });
  router.get('/api/me', auth, (req, res) => {
    res.set('Cache-Control', 'no-store').json(memberBody(req.user!));
  });
  return router;
}
