import { fileURLToPath } from 'node:url';
import express, { Router } from 'express';
import { requireGameUser } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { memberBody } from '../member-body.js';

const PUBLIC_DIR = fileURLToPath(new URL('../public/', import.meta.url));
const PAGE_HEADERS = {
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/**
 * The web event page: `GET /event` (HTML), its assets under `/event/`,
 * `GET /api/event/config` (where to log in and out) and `GET /api/event/me`
 * (the player of the web token cookie, or of a bearer token).
 */
export function eventRoutes(config: ResolvedAppConfig): Router {
  const router = Router();
  router.get('/event', (_req, res) => {
    res.set(PAGE_HEADERS).sendFile('event.html', { root: PUBLIC_DIR });
  });
  router.use('/event', express.static(PUBLIC_DIR, { index: false, redirect: false, setHeaders: (res) => res.set(PAGE_HEADERS) }));
  router.get('/api/event/config', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({
      login_url: config.webLoginUrl,
      logout_url: config.webLogoutUrl,
      game_id: config.gameId,
    });
  });
  const auth = requireGameUser({
    client: config.client,
    realm: config.realm,
    logger: config.logger,
    tokenFrom: { cookie: config.webCookieName },
  });
  router.get('/api/event/me', auth, (req, res) => {
    res.set('Cache-Control', 'no-store').json(memberBody(req.user!));
  });
  return router;
}
