import express from 'express';
import type { Express } from 'express';
import { PlatformError, platformErrorHandler } from '../lib/index.js';
import { resolveAppConfig } from './app-config.js';
import type { AppConfig } from './app-config.js';
import { adminMemberRoutes } from './routes/admin-members.js';
import { eventRoutes } from './routes/event.js';
import { healthRoutes } from './routes/health.js';
import { meRoutes } from './routes/me.js';

export type { AppConfig } from './app-config.js';

const BODY_LIMIT = '16kb';

/**
 * The example game backend as an Express app, not listening (`server.ts`
 * listens). Routes: `GET /healthz`, `GET /api/me`, `GET /admin/members`,
 * `GET /event`, `GET /api/event/me`; every failure is a problem+json body.
 *
 * @example
 * ```ts
 * const app = createApp({ client, adminMemberNos: ['20005061986'] });
 * app.listen(3000);
 * ```
 */
export function createApp(config: AppConfig): Express {
  const resolved = resolveAppConfig(config);
  const app = express();
  app.disable('x-powered-by');
  // No route takes a body; parsing one anyway turns a malformed or huge body
  // into 400/413 problem+json, and lets the auth layer see (and refuse) a
  // form-body token.
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  app.use(healthRoutes(resolved.isReady));
  app.use(meRoutes(resolved));
  app.use(adminMemberRoutes(resolved));
  app.use(eventRoutes(resolved));
  app.use((_req, _res, next) => {
    next(new PlatformError({ kind: 'not_found', message: 'There is no such route.' }));
  });
  app.use(platformErrorHandler({ realm: resolved.realm, logger: resolved.logger }));
  return app;
}
