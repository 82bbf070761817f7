import type { AuthRequest } from './types.js';

/**
 * True for a CORS preflight: an `OPTIONS` request with
 * `Access-Control-Request-Method` and no `Authorization` header. Browsers
 * never send credentials on a preflight, so it is left to CORS handling
 * instead of being answered 401. Any other `OPTIONS` request is authenticated.
 */
export function isUncredentialedPreflight(req: AuthRequest): boolean {
  return req.method?.toUpperCase() === 'OPTIONS'
    && req.headers['access-control-request-method'] !== undefined
    && req.headers.authorization === undefined;
}
