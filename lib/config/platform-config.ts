import type { Clock, Logger } from '../types.js';
import type { MonotonicClock } from '../time/monotonic.js';
import type { CLIENT_SECRET, SecretBox } from './secret-box.js';

/** Which platform environment the credentials belong to. */
export type PlatformEnvironment = 'live' | 'sandbox';

/** The opt-in result cache of verified user tokens (off by default). */
export interface ResultCacheOptions {
  /** How long a verified user token is trusted without asking the platform; at most 300000. */
  ttlMs: number;
  /** Most cached tokens (LRU); default 10000. */
  maxEntries?: number;
}

/**
 * The circuit breaker of the HTTP layer. Only transport faults count as
 * failures (network errors, timeouts, 5xx or unreadable bodies, code 50000,
 * each after its retries); any platform answer with a code (40000, 46217,
 * 40101...) counts as a success, so invalid user tokens can never open it.
 */
export interface CircuitBreakerOptions {
  /** Consecutive failed calls that open the circuit; default 10 (1 to 1000). */
  failureThreshold?: number;
  /**
   * How long the open circuit answers 503 `retry_later` without calling the
   * platform; then one probe call is let through (half-open), and its outcome
   * closes or reopens the circuit. Default 5000 (100 to 300000). Judged with
   * `clock` on each call: no timer is set.
   */
  openMs?: number;
}

/**
 * Options of the platform client and the API-token provider, checked once by
 * {@link resolvePlatformConfig}. Durations are in milliseconds.
 */
export interface PlatformConfig {
  /** The platform's base URL (http or https, no credentials). Takes precedence over `environment`. */
  baseUrl?: string;
  /**
   * `'live'` (https://api.onstove.com) or `'sandbox'` (https://api.gate8.com).
   * `'custom'` (what a resolved config reports for any other URL, such as the
   * emulator's) is accepted beside a `baseUrl`, so a spread copy of a resolved
   * config resolves again.
   */
  environment?: PlatformEnvironment | 'custom';
  /** E1 `client_id`. */
  clientId: string;
  /**
   * E1 `client_secret`; never logged, never shown by `util.inspect` or JSON.
   * May be left out of a spread copy of a resolved config: the copy carries
   * the secret under {@link CLIENT_SECRET}.
   */
  clientSecret: string;
  /** The Game ID: E1's `service_id` and E2/E3's `{game_id}`. */
  gameId: string;
  /** Optional E1 `instance_id`, giving this server instance its own API token. */
  instanceId?: string;
  /** Per-attempt timeout; default 5000. */
  timeoutMs?: number;
  /** Whole budget of one operation, retries included; default 15000 (and never below `timeoutMs`). */
  totalTimeoutMs?: number;
  /** Retries of transient faults after the first attempt; default 2. */
  retries?: number;
  /** Base of the full-jitter backoff; default 100. */
  retryBaseDelayMs?: number;
  /** Cap of one backoff delay and of `Retry-After`; default 1000. */
  retryMaxDelayMs?: number;
  /** A pino-compatible logger; the client and provider are silent without one. */
  logger?: Logger;
  /**
   * Source of the wall-clock time for API-token lifetimes; default `Date`.
   * Durations (breaker, cache TTL, back-offs) run on a monotonic clock:
   * `performance.now()` with the default clock, and with an injected clock
   * (tests) its forward movement only, so a backward step changes no duration.
   */
  clock?: Clock;
  /** Opt-in result cache of verified user tokens; off by default. */
  cache?: ResultCacheOptions | false;
  /** Platform calls in flight at once; default 64. */
  maxConcurrentCalls?: number;
  /** Calls waiting for a slot before failing fast with 503; default 1024 (0: fail at once). */
  maxQueuedCalls?: number;
  /** Fail fast while the platform is down; on by default (`{ failureThreshold: 10, openMs: 5000 }`); `false`: off. */
  circuitBreaker?: CircuitBreakerOptions | false;
  /**
   * How long a user token refused by the platform (40000) is answered 401
   * without another platform call, keyed by the token's digest; default 5000
   * (0 to 600000; 0 turns it off).
   */
  invalidTokenCacheMs?: number;
}

/**
 * The checked, frozen configuration. `clientSecret` is a non-enumerable
 * property: it is readable, but absent from `Object.keys`, JSON and
 * `util.inspect`. A spread copy (`{ ...fromEnv(), cache: { ttlMs: 30_000 } }`)
 * keeps the secret in a {@link SecretBox} under {@link CLIENT_SECRET}, which
 * prints as `[redacted]`, and resolves again as options.
 */
export interface ResolvedPlatformConfig {
  /** The client secret, boxed so that spreads keep it and printing never shows it. */
  readonly [CLIENT_SECRET]: SecretBox;
  readonly baseUrl: string;
  /** `'custom'` when `baseUrl` is neither the Live nor the Sandbox host. */
  readonly environment: PlatformEnvironment | 'custom';
  readonly clientId: string;
  readonly clientSecret: string;
  readonly gameId: string;
  readonly instanceId: string | undefined;
  /** `<gameId>_SERVER`, sent as `caller-id` on every call. */
  readonly callerId: string;
  readonly timeoutMs: number;
  readonly totalTimeoutMs: number;
  readonly retries: number;
  readonly retryBaseDelayMs: number;
  readonly retryMaxDelayMs: number;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly cache: Readonly<Required<ResultCacheOptions>> | undefined;
  readonly maxConcurrentCalls: number;
  readonly maxQueuedCalls: number;
  /** `undefined` when turned off. */
  readonly circuitBreaker: Readonly<Required<CircuitBreakerOptions>> | undefined;
  /** Durations are measured on this clock: it never moves backwards. */
  readonly monotonic: MonotonicClock;
  readonly invalidTokenCacheMs: number;
}
