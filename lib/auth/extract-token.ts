import { checkTokenSyntax, invalidRequest, missingCredentials } from '../errors/index.js';
import { readAuthorization } from './authorization-header.js';
import { readCookieToken } from './cookie-token.js';
import { readBodyToken, readQueryToken } from './parameter-tokens.js';
import type { AuthRequest, ExtractedToken, TokenSources } from './types.js';

function isReadOnlyMethod(method: string | undefined): boolean {
  const upper = (method ?? 'GET').toUpperCase();
  return upper === 'GET' || upper === 'HEAD';
}

/**
 * Finds the request's bearer token per RFC 6750 and the package's bad-input
 * table, without calling the platform. Returns a token that is a non-empty
 * string in the b64token syntax, or throws a `PlatformError`:
 *
 * - `missingCredentials()` (401, bare challenge): no token anywhere, or another scheme;
 * - `invalidRequest` (400): a malformed header, two `Authorization` headers,
 *   a token in two places, a repeated or nested parameter, or a token in a
 *   place that is not enabled;
 * - `malformedToken` (401 `invalid_token`): bad characters, too long, `null`.
 *
 * The `Authorization` header, the query and a form body are RFC 6750's three
 * methods and are mutually exclusive. The cookie is ambient (a browser sends
 * it on its own), so it is used only when none of the three carries a token.
 *
 * @example
 * ```ts
 * const { token, source } = extractBearerToken(req, { cookie: 'SUAT' });
 * ```
 */
export function extractBearerToken(req: AuthRequest, sources: TokenSources = {}): ExtractedToken {
  const found = findBearerToken(req, sources);
  checkTokenSyntax(found.token);
  return found;
}

/**
 * {@link extractBearerToken} without the token syntax check, for the
 * authenticator, which checks it once on its way to the platform client.
 */
export function findBearerToken(req: AuthRequest, sources: TokenSources): ExtractedToken {
  const found = locateBearerToken(req, sources);
  if (found === undefined) throw missingCredentials();
  return found;
}

/**
 * {@link findBearerToken}, with `undefined` where it throws `missingCredentials()`: for a caller
 * with a token of its own to fall back on (a Socket.IO handshake's `auth.token`), which would
 * otherwise build and drop an error on every handshake. Every other refusal still throws.
 */
export function locateBearerToken(req: AuthRequest, sources: TokenSources): ExtractedToken | undefined {
  const header = readAuthorization(req);
  // The common request (no query string, no body) skips both readers.
  const target = typeof req.originalUrl === 'string' ? req.originalUrl : req.url;
  const query = typeof target === 'string' && !target.includes('?') ? undefined : readQueryToken(req);
  const body = req.headers['content-type'] === undefined ? undefined : readBodyToken(req);
  if (query !== undefined && sources.query !== true) {
    throw invalidRequest('access_token in the query is not accepted');
  }
  if (body !== undefined) {
    if (body.multipart) throw invalidRequest('access_token in a multipart body is not accepted');
    if (sources.body !== true) throw invalidRequest('access_token in the body is not accepted');
    if (isReadOnlyMethod(req.method)) throw invalidRequest('access_token in the body of a GET or HEAD request');
  }
  let result: ExtractedToken | undefined = header === undefined ? undefined : { token: header, source: 'header' };
  if (query !== undefined) {
    if (result !== undefined) throw invalidRequest('token sent in more than one place');
    result = { token: query, source: 'query' };
  }
  if (body !== undefined) {
    if (result !== undefined) throw invalidRequest('token sent in more than one place');
    result = { token: body.token, source: 'body' };
  }
  if (result === undefined && sources.cookie !== undefined) {
    const token = readCookieToken(req, sources.cookie);
    if (token !== undefined) result = { token, source: 'cookie' };
  }
  if (result === undefined) return undefined;
  if (result.token === '') throw invalidRequest('empty access_token parameter');
  return result;
}
