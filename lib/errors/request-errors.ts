import { PlatformError } from './platform-error.js';

// Failures found in the incoming request, before any platform call.

/** No credentials, or another scheme: 401 with a bare `Bearer realm` challenge. */
export function missingCredentials(): PlatformError {
  return new PlatformError({ kind: 'missing_credentials', message: 'No bearer token was sent.' });
}

/** A malformed request (RFC 6750 `invalid_request`): 400. */
export function invalidRequest(description: string): PlatformError {
  return new PlatformError({ kind: 'invalid_request', message: `Malformed authentication request: ${description}.`, description });
}

/** A token that cannot be valid (charset, length): 401 `invalid_token`, no platform call. */
export function malformedToken(description: string): PlatformError {
  return new PlatformError({ kind: 'invalid_token', message: `Malformed access token: ${description}.`, description });
}

/** A connection that shutdown overtook (a handshake, a new session): 503 `retry_later` with `Retry-After`. */
export function shuttingDown(): PlatformError {
  return new PlatformError({ kind: 'platform_unavailable', message: 'The server is shutting down.' });
}

/** Too many requests of one kind from one caller: 429 `retry_later` with `Retry-After`, no platform call. */
export function rateLimited(message: string, retryAfterSeconds: number): PlatformError {
  return new PlatformError({ kind: 'rate_limited', message, retryAfterSeconds });
}
