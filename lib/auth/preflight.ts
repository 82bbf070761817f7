import type { AuthRequest } from './types.js';

/**
 * True for an `OPTIONS` request without an `Authorization` header: a CORS
 * preflight, which carries no credentials. It is left to CORS handling
 * instead of being answered 401.
 */
export function isUncredentialedPreflight(req: AuthRequest): boolean {
  return req.method?.toUpperCase() === 'OPTIONS' && req.headers.authorization === undefined;
}
