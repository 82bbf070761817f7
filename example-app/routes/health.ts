import { Router } from 'express';

/** `GET /healthz`: 200 `{"status":"ok"}` while the app serves requests. */
export function healthRoutes(): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  return router;
}
