import { Router } from 'express';
import type { Registry } from 'prom-client';

/** `GET /metrics`: the registry in Prometheus text exposition format. */
export function metricsRoutes(register: Registry): Router {
  const router = Router();
  router.get('/metrics', async (_req, res, next) => {
    try {
      const text = await register.metrics();
      res.status(200).set('Content-Type', register.contentType).set('Cache-Control', 'no-store').send(text);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
