import express from 'express';
import type { ErrorRequestHandler, Express } from 'express';
import { PlatformError, platformErrorHandler } from '../lib/index.js';
import { resolveAppConfig } from './app-config.js';
import type { AppConfig } from './app-config.js';
import { adminMemberRoutes } from './routes/admin-members.js';
import { eventRoutes } from './routes/event.js';
import { healthRoutes } from './routes/health.js';
import { addMeRoute } from './routes/me.js';
import { sessionRoutes } from './routes/sessions.js';
import { metricsRoutes } from './routes/metrics.js';
import { collectGamePlatformMetrics } from '../lib/prometheus/index.js';

export type { AppConfig } from './app-config.js';

const BODY_LIMIT = '16kb';

/**
 * body-parser keeps the raw request body in a parse error's `body`: a token a
 * client put in a malformed JSON body would reach every error logger after
 * this point. Drop it; the status and `type` are all the handler needs.
 */
const dropRawBodyFromParseErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  if (err !== null && typeof err === 'object' && 'body' in err) delete (err as { body?: unknown }).body;
  next(err);
};

/**
 * The example game backend as an Express app, not listening (`server.ts`
 * listens). Routes: `GET /healthz`, `GET /readyz`, `GET /metrics` (with
 * `config.metrics` and `config.metricsToken`: bearer only), `GET /api/me`, `POST /api/logout`,
 * `GET /admin/members`, `POST /admin/members/<member_no>/disconnect`,
 * `GET /event`, `GET /api/event/me`; every failure is a problem+json body.
 * `app.locals.realtime` is the live-connection registry that
 * `attachRealtime(server, app.locals.realtime)` serves over Socket.IO and `/ws`.
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
  // Every JSON answer here is one player's or one moment's, sent with `no-store`: an ETag (a SHA-1
  // of each body) would never be revalidated. The event page's files keep theirs.
  app.set('etag', false);
  // server.ts attaches Socket.IO and /ws to the same registry (attachRealtime).
  app.locals.realtime = resolved.realtime;
  // No route takes a body; parsing one anyway turns a malformed or huge body
  // into 400/413 problem+json, and lets the auth layer see (and refuse) a
  // form-body token.
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(express.urlencoded({ extended: false, limit: BODY_LIMIT }));
  app.use(dropRawBodyFromParseErrors);
  // The players' route first, on the app itself: every router passed on the way, or entered,
  // costs a request its dispatch (about 0.6 µs for the health router); probes and scrapes are
  // rare, and no paths overlap.
  addMeRoute(app, resolved);
  app.use(healthRoutes(resolved.isReady, {
    client: resolved.client, isStarted: resolved.isReady, isShuttingDown: resolved.isShuttingDown, extras: resolved.healthExtras,
  }));
  if (resolved.metrics !== undefined) {
    collectGamePlatformMetrics({ register: resolved.metrics, health: () => resolved.client.health(resolved.healthExtras()) });
    // Never anonymous on the API port: a token, or a port of its own (server.ts).
    if (resolved.metricsToken !== null) app.use(metricsRoutes(resolved.metrics, { token: resolved.metricsToken }));
  }
  app.use(sessionRoutes(resolved));
  app.use(adminMemberRoutes(resolved));
  app.use(eventRoutes(resolved));
  app.use((_req, _res, next) => {
    next(new PlatformError({ kind: 'not_found', message: 'There is no such route.' }));
  });
  app.use(platformErrorHandler({ realm: resolved.realm, logger: resolved.logger }));
  return app;
}
