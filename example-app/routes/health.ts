import { Router } from 'express';

/**
 * `GET /healthz`: 200 `{"status":"ok"}` once the server's start-up (the API
 * token warm-up) is done, 503 `{"status":"starting"}` before. A platform
 * misconfiguration found at start-up does not make it unhealthy: the app
 * serves and answers protected routes with 500 `contact_support`.
 */
export function healthRoutes(isReady: () => boolean): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    const ready = isReady();
    res.status(ready ? 200 : 503).set('Cache-Control', 'no-store').json({ status: ready ? 'ok' : 'starting' });
  });
  return router;
}
