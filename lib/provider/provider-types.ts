import type { ErrorKind } from '../errors/index.js';
import type { PlatformHttp } from '../http/index.js';

/** Extra collaborators of an {@link ApiTokenProvider}. */
export interface ApiTokenProviderDeps {
  /** Share an HTTP layer (its agents and concurrency cap) instead of building one. */
  http?: PlatformHttp;
}

/** Options of {@link ApiTokenProvider.getToken}. */
export interface GetTokenOptions {
  /** `performance.now()` time after which the caller stops waiting (the shared E1 call goes on). */
  deadline?: number;
}

/**
 * Payload of the provider's `'token'` event. `fingerprint` is the first 8 hex
 * digits of the token's SHA-256, never the token.
 *
 * - `issued`: first token (or the first after an invalidation or expiry);
 * - `renewed`: a new token replaced one still held (early renewal);
 * - `reused`: E1 handed back the held token (its lifetime is not yet at 30 %);
 * - `failed`: E1 failed; `code` is the platform's code when it gave one.
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
  /** Set while E1 is not called after a configuration failure. */
  backoffUntil?: number;
}
