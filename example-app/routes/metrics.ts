import { createHash, timingSafeEqual } from 'node:crypto';
import express, { Router } from 'express';
import type { Express, RequestHandler } from 'express';
import type { Registry } from 'prom-client';

/** Who may read `/metrics`: holders of this bearer token, or anyone (`null`, only on a port of its own). */
export interface MetricsAccess {
  token: string | null;
}

const digest = (value: string): Buffer => createHash('sha256').update(value).digest();

/**
 * True when the request carries `Authorization: Bearer <token>`. Compared
 * in constant time over digests, so neither the token's content nor its length
 * shows in the answer's timing.
 */
export function hasMetricsToken(header: string | undefined, token: string): boolean {
  const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
  const given = match === null ? '' : match[1]!;
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

function requireToken(token: string): RequestHandler {
  return (req, res, next) => {
    if (hasMetricsToken(req.headers.authorization, token)) {
      next();
      return;
    }
    res.status(401).set('WWW-Authenticate', 'Bearer realm="metrics"').set('Cache-Control', 'no-store')
      .json({ error: 'unauthorized', message: 'GET /metrics needs Authorization: Bearer <METRICS_TOKEN>.' });
  };
}

/**
 * `GET /metrics`: the registry in Prometheus text exposition format, to
 * holders of `access.token` (as a Prometheus scrape config sends it:
 * `authorization: { credentials: ... }`); with `token: null` to anyone, which
 * only a port of its own may allow.
 */
export function metricsRoutes(register: Registry, access: MetricsAccess): Router {
  const router = Router();
  const handlers: RequestHandler[] = access.token === null ? [] : [requireToken(access.token)];
  router.get('/metrics', ...handlers, async (_req, res, next) => {
    try {
      const text = await register.metrics();
      res.status(200).set('Content-Type', register.contentType).set('Cache-Control', 'no-store').send(text);
    } catch (error) {
      next(error);
    }
  });
  return router;
}

/** The app of a separate metrics port (`METRICS_PORT`): `/metrics` only, everything else 404. */
export function metricsApp(register: Registry, access: MetricsAccess): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(metricsRoutes(register, access));
  app.use((_req, res) => void res.status(404).set('Cache-Control', 'no-store').json({ error: 'not_found' }));
  return app;
}
