import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
import diagnosticsChannel from 'node:diagnostics_channel';
import { Counter, Gauge, Histogram } from 'prom-client';
import type { Registry } from 'prom-client';
import { CHANNELS } from '../diagnostics/channels.js';
import type { CacheMessage, ConnectionMessage, PlatformCallMessage, RevocationMessage, SessionEndCause, SessionEndMessage, VerifyMessage } from '../diagnostics/channels.js';
import type { ClientHealth } from '../client/index.js';

/** Options of {@link collectGamePlatformMetrics}. */
export interface GamePlatformMetricsOptions {
  /** The registry to add the metrics to (prom-client's `register` or your own). */
  register: Registry;
  /** Read at each scrape for the gauges: usually `() => client.health({ liveConnections: registry.size })`. */
  health?: () => ClientHealth;
  /** Metric name prefix; default `game_platform_`. */
  prefix?: string;
}

const CIRCUIT = { closed: 0, 'half-open': 1, open: 2 } as const;
/** Every reason a live session is ended for: each series exists from the start, at 0. */
const END_CAUSES: readonly SessionEndCause[] = ['logout', 'admin', 'expired', 'revoked', 'refused', 'shutdown', 'bound'];

/**
 * Prometheus metrics fed from the package's diagnostics channels, with
 * `prom-client` (an optional peer): verifications by outcome, platform-call
 * durations by endpoint, verification-cache lookups, revocations; the
 * session figures: requests and handshakes served from the outage grace,
 * the lag of revocations and session ends made on another instance (from
 * the making instance's `Date.now()` to this one's when applied), and live
 * sessions this instance ended, by reason; and, read
 * from `health()` at each scrape, API-token seconds to expiry, the circuit's
 * state (0 closed, 1 half-open, 2 open), calls in flight and live
 * connections. Returns a function that unsubscribes.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { register } from 'prom-client';
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * import { collectGamePlatformMetrics } from 'passport-game-platform/prometheus';
 * const client = new PlatformClient(fromEnv());
 * const app = express();
 * collectGamePlatformMetrics({ register, health: () => client.health() });
 * app.get('/metrics', async (_req, res) => { res.type(register.contentType).send(await register.metrics()); });
 * ```
 */
export function collectGamePlatformMetrics(options: GamePlatformMetricsOptions): () => void {
  const { register, health } = options;
  const prefix = options.prefix ?? 'game_platform_';
  const registers = [register];
  const verifications = new Counter({
    name: `${prefix}verifications_total`, help: 'User-token verifications by kind, outcome and whether the cache answered',
    labelNames: ['kind', 'outcome', 'cached'] as const, registers,
  });
  const calls = new Histogram({
    name: `${prefix}platform_call_duration_seconds`, help: 'Duration of each HTTP attempt to the platform, by endpoint and outcome',
    labelNames: ['endpoint', 'outcome'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers,
  });
  const cache = new Counter({
    name: `${prefix}cache_lookups_total`, help: 'Verification-cache lookups by kind and result', labelNames: ['kind', 'result'] as const, registers,
  });
  const revocations = new Counter({
    name: `${prefix}revocations_total`, help: 'User tokens revoked, here (local) or by another instance (remote)', labelNames: ['origin'] as const, registers,
  });
  const graceServed = new Counter({
    name: `${prefix}outage_grace_served_total`, help: 'Requests and handshakes answered from the outage grace while the platform was out of service', registers,
  });
  const lag = new Histogram({
    name: `${prefix}revocation_lag_seconds`, help: 'From when a revocation or session end was made on another instance to when this instance applied it (wall clocks)',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers,
  });
  const sessionsEnded = new Counter({
    name: `${prefix}sessions_ended_total`, help: 'Live sessions this instance ended, by reason', labelNames: ['reason'] as const, registers,
  });
  for (const reason of END_CAUSES) sessionsEnded.inc({ reason }, 0);
  if (health !== undefined) {
    new Gauge({
      name: `${prefix}api_token_expires_in_seconds`, help: 'Seconds until the held API token expires (absent while none is held)', registers,
      collect() {
        this.reset();
        const seconds = health().apiToken.expiresInS;
        if (seconds !== undefined) this.set(seconds);
      },
    });
    new Gauge({
      name: `${prefix}circuit_state`, help: 'Circuit breaker: 0 closed, 1 half-open, 2 open', registers,
      collect() {
        this.set(CIRCUIT[health().circuit]);
      },
    });
    new Gauge({
      name: `${prefix}platform_calls`, help: 'Platform calls in flight and queued', labelNames: ['state'] as const, registers,
      collect() {
        const snapshot = health();
        this.set({ state: 'in_flight' }, snapshot.inFlight);
        this.set({ state: 'queued' }, snapshot.queued);
      },
    });
    new Gauge({
      name: `${prefix}live_connections`, help: 'Live real-time connections of this instance', registers,
      collect() {
        this.set(health().liveConnections ?? 0);
      },
    });
  }
  const onVerify = (message: object): void => {
    const m = message as VerifyMessage;
    verifications.inc({ kind: m.kind, outcome: m.outcome ?? 'unknown', cached: String(m.cached === true) });
  };
  const onCall = (message: object): void => {
    const m = message as PlatformCallMessage;
    calls.observe({ endpoint: m.endpoint, outcome: m.outcome ?? 'unknown' }, (m.durationMs ?? 0) / 1000);
  };
  const onCache = (message: unknown): void => {
    const m = message as CacheMessage;
    cache.inc({ kind: m.kind, result: m.hit ? 'hit' : 'miss' });
  };
  const onRevocation = (message: unknown): void => void revocations.inc({ origin: (message as RevocationMessage).origin });
  const onGrace = (): void => void graceServed.inc();
  const onSessionEnd = (message: unknown): void => void lag.observe((message as SessionEndMessage).lagMs / 1000);
  const onConnection = (message: unknown): void => {
    const { ended } = message as ConnectionMessage;
    if (ended !== undefined) sessionsEnded.inc({ reason: ended });
  };
  const noop = (): void => {};
  const verify = { start: noop, end: noop, asyncStart: noop, error: noop, asyncEnd: onVerify };
  const call = { start: noop, end: noop, asyncStart: noop, error: noop, asyncEnd: onCall };
  diagnosticsChannel.tracingChannel<object, object>(CHANNELS.verify).subscribe(verify);
  diagnosticsChannel.tracingChannel<object, object>(CHANNELS.platformCall).subscribe(call);
  diagnosticsChannel.subscribe(CHANNELS.cache, onCache);
  diagnosticsChannel.subscribe(CHANNELS.revocation, onRevocation);
  diagnosticsChannel.subscribe(CHANNELS.outageGrace, onGrace);
  diagnosticsChannel.subscribe(CHANNELS.sessionEnd, onSessionEnd);
  diagnosticsChannel.subscribe(CHANNELS.connection, onConnection);
  return () => {
    diagnosticsChannel.unsubscribe(CHANNELS.outageGrace, onGrace);
    diagnosticsChannel.unsubscribe(CHANNELS.sessionEnd, onSessionEnd);
    diagnosticsChannel.unsubscribe(CHANNELS.connection, onConnection);
    diagnosticsChannel.tracingChannel<object, object>(CHANNELS.verify).unsubscribe(verify);
    diagnosticsChannel.tracingChannel<object, object>(CHANNELS.platformCall).unsubscribe(call);
    diagnosticsChannel.unsubscribe(CHANNELS.cache, onCache);
    diagnosticsChannel.unsubscribe(CHANNELS.revocation, onRevocation);
  };
}
