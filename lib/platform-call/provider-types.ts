import type { ErrorKind, PlatformEndpoint } from '../errors/index.js';
import type { PlatformHttp } from './platform-http.js';
import type { Abortable } from './deadline-signal.js';
import type { Logger } from '../types.js';

/** Extra collaborators of an {@link ApiTokenProvider}. */
export interface ApiTokenProviderDeps {
  /**
   * Share an HTTP layer (its agents and concurrency cap) instead of building one.
   *
   * @internal
   */
  http?: PlatformHttp;
}

/** Options of {@link ApiTokenProvider.getToken}. */
export interface GetTokenOptions {
  /** `performance.now()` time after which the caller stops waiting (the shared E1 call goes on). */
  deadline?: number | undefined;
  /** The caller stops waiting when it aborts (its client has gone); the shared E1 call goes on. */
  signal?: Abortable | undefined;
}

/** What {@link ApiTokenProvider.withToken} needs of an answer: the platform's code. */
export interface TokenReply {
  readonly code: number;
}

/** Filled in by {@link ApiTokenProvider.withToken} as it goes, readable even when it throws. */
export interface TokenTrace {
  /** The API token used last. */
  apiToken?: string;
  /** True once the token was reissued after a refusal. */
  reissued?: boolean;
}

/** Options of {@link ApiTokenProvider.withToken}. */
export interface WithTokenOptions<T extends TokenReply> extends GetTokenOptions {
  /** The operation, for the error and the log line of a refusal. */
  endpoint: PlatformEndpoint;
  /**
   * The refusal code when `reply` shows the platform refused our API token
   * (default: its `code` when 40101 or 40103), else `undefined`.
   */
  refusal?: ((reply: T, apiToken: string) => number | undefined | Promise<number | undefined>) | undefined;
  /** True when `reply` proves the platform accepts our API token (default: code 0). */
  accepted?: (reply: T) => boolean;
  /** Filled in as the call goes (the API token used, whether it was reissued). */
  trace?: TokenTrace;
  /** Where the one line of a refusal goes; default the provider's logger. */
  logger?: Logger;
}

/**
 * Payload of the provider's `'token'` event, its view of the
 * `api-token-state` channel (`fingerprint` is the message's
 * `apiTokenFingerprint`: the first 8 hex digits of the token's SHA-256,
 * never the token).
 *
 * - `issued`: first token (or the first after an invalidation or expiry);
 * - `renewed`: a new token replaced one still held (early renewal);
 * - `reused`: E1 handed back the held token (its lifetime is not yet at 30 %);
 * - `failed`: E1 failed, or the platform refused a token again after a reissue;
 *   `code` is the platform's code when it gave one.
 */
export interface TokenEvent {
  type: 'issued' | 'renewed' | 'reused' | 'failed';
  fingerprint?: string;
  /** `clock.now()` time at which the token expires. */
  expiresAt?: number;
  durationMs: number;
  code?: number;
  kind?: ErrorKind;
}

/** A snapshot of the provider, for health checks. */
export interface ProviderState {
  fingerprint?: string;
  expiresAt?: number;
  renewAt?: number;
  /** Set while E1 is not called after a configuration failure (a `clock.now()` time). */
  backoffUntil?: number;
}
