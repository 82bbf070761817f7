import { Router } from 'express';
import type { ClientHealth, HealthExtras, PlatformClient } from '../../lib/index.js';

/** Why `/readyz` answers 503, one entry per problem. */
export type NotReadyReason = 'starting' | 'shutting_down' | 'credentials_refused' | 'no_api_token' | 'platform_down' | 'store_down';

/** What `/readyz` needs. */
export interface ReadinessSources {
  client: PlatformClient;
  /** The server's start-up (the API-token warm-up) is done. */
  isStarted: () => boolean;
  /** True once SIGTERM arrived: the load balancer should stop sending traffic. */
  isShuttingDown: () => boolean;
  /** The shared store's state and the live connections, from their owners. */
  extras: () => HealthExtras;
}

/** The reasons an instance is not ready, none when it is. */
export function notReadyReasons(health: ClientHealth, started: boolean, stopping: boolean): NotReadyReason[] {
  const reasons: NotReadyReason[] = [];
  if (stopping) reasons.push('shutting_down');
  else if (!started) reasons.push('starting');
  if (health.apiToken.refused) reasons.push('credentials_refused');
  else if (!health.apiToken.held) reasons.push('no_api_token');
  if (health.circuit !== 'closed') reasons.push('platform_down');
  if (health.store === 'down') reasons.push('store_down');
  return reasons;
}

/**
 * `GET /healthz` (liveness): 200 `{"status":"ok"}` whenever the process
 * answers, 503 `{"status":"starting"}` until the start-up is done.
 * `GET /readyz` (readiness): 200 `{"status":"ready",...}` when an API token
 * is held, the circuit is closed and the shared store (when configured)
 * answers; otherwise 503 `{"status":"not_ready","reasons":[...]}`. Both bodies
 * carry the health snapshot: fingerprints and counts, never a secret.
 */
export function healthRoutes(isReady: () => boolean, readiness?: ReadinessSources): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    const ready = isReady();
    res.status(ready ? 200 : 503).set('Cache-Control', 'no-store').json({ status: ready ? 'ok' : 'starting' });
  });
  if (readiness !== undefined) {
    router.get('/readyz', (_req, res) => {
      const health = readiness.client.health(readiness.extras());
      const reasons = notReadyReasons(health, readiness.isStarted(), readiness.isShuttingDown());
      const { apiToken, circuit, inFlight, queued, store, liveConnections } = health;
      const snapshot = {
        apiToken: { held: apiToken.held, ...(apiToken.expiresInS === undefined ? {} : { expiresInS: apiToken.expiresInS }) },
        circuit, inFlight, queued,
        ...(store === undefined ? {} : { store }),
        ...(liveConnections === undefined ? {} : { liveConnections }),
      };
      res.status(reasons.length === 0 ? 200 : 503).set('Cache-Control', 'no-store')
        .json(reasons.length === 0 ? { status: 'ready', ...snapshot } : { status: 'not_ready', reasons, ...snapshot });
    });
  }
  return router;
}
