import { Router } from 'express';
import type { ClientHealth, HealthExtras, PlatformClient } from '../../lib/index.js';

/** Why `/readyz` answers 503, one entry per problem. */
export type NotReadyReason = 'starting' | 'shutting_down' | 'credentials_refused' | 'no_api_token' | 'platform_down';

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

/**
 * The reasons an instance is not ready, none when it is. A shared store that
 * is down is not one: the instance still serves players through the platform
 * (see {@link degradedParts}); failing readiness for it would take every
 * instance out of rotation at once.
 */
export function notReadyReasons(health: ClientHealth, started: boolean, stopping: boolean): NotReadyReason[] {
  const reasons: NotReadyReason[] = [];
  if (stopping) reasons.push('shutting_down');
  else if (!started) reasons.push('starting');
  if (health.apiToken.refused) reasons.push('credentials_refused');
  else if (!health.apiToken.held) reasons.push('no_api_token');
  if (health.circuit !== 'closed') reasons.push('platform_down');
  return reasons;
}

/** What the instance serves without right now (`store`: Redis is down, verification goes to the platform). */
export function degradedParts(health: ClientHealth): string[] {
  if (health.degraded !== undefined) return [...health.degraded];
  return health.store !== undefined && health.store !== 'ok' ? ['store'] : [];
}

/**
 * `GET /healthz` (liveness): 200 `{"status":"ok"}` whenever the process
 * answers, 503 `{"status":"starting"}` until the start-up is done.
 * `GET /readyz` (readiness): 200 `{"status":"ready",...}` when an API token
 * is held and the circuit is closed; 200 `{"status":"degraded","degraded":
 * ["store"],...}` when it can still serve but the shared store (Redis) is
 * down; otherwise 503 `{"status":"not_ready","reasons":[...]}`. Every body
 * carries the health snapshot: fingerprints and counts, never a secret.
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
      const degraded = degradedParts(health);
      const { apiToken, circuit, inFlight, queued, store, liveConnections } = health;
      const snapshot = {
        apiToken: { held: apiToken.held, ...(apiToken.expiresInS === undefined ? {} : { expiresInS: apiToken.expiresInS }) },
        circuit, inFlight, queued,
        ...(store === undefined ? {} : { store }),
        ...(liveConnections === undefined ? {} : { liveConnections }),
      };
      const body = reasons.length > 0
        ? { status: 'not_ready', reasons, ...(degraded.length === 0 ? {} : { degraded }), ...snapshot }
        : degraded.length > 0 ? { status: 'degraded', degraded, ...snapshot } : { status: 'ready', ...snapshot };
      res.status(reasons.length === 0 ? 200 : 503).set('Cache-Control', 'no-store').json(body);
    });
  }
  return router;
}
