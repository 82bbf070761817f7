import { invalidRequest, missingCredentials } from '../errors/index.js';
import { readAuthorization } from './authorization-header.js';
import { readCookieToken } from './cookie-token.js';
import { readBodyToken, readQueryToken } from './parameter-tokens.js';
import { assertTokenSyntax } from './token-syntax.js';
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
  const header = readAuthorization(req);
  const query = readQueryToken(req);
  const body = readBodyToken(req);
  if (query !== undefined && sources.query !== true) {
    throw invalidRequest('access_token in the query is not accepted');
  }
  if (body !== undefined) {
    if (body.multipart) throw invalidRequest('access_token in a multipart body is not accepted');
    if (sources.body !== true) throw invalidRequest('access_token in the body is not accepted');
    if (isReadOnlyMethod(req.method)) throw invalidRequest('access_token in the body of a GET or HEAD request');
  }
  const found: ExtractedToken[] = [];
  if (header.kind === 'bearer') found.push({ token: header.token, source: 'header' });
  if (query !== undefined) found.push({ token: query, source: 'query' });
  if (body !== undefined) found.push({ token: body.token, source: 'body' });
  if (found.length > 1) throw invalidRequest('token sent in more than one place');
  let result = found[0];
  if (result === undefined && sources.cookie !== undefined) {
    const token = readCookieToken(req, sources.cookie);
    if (token !== undefined) result = { token, source: 'cookie' };
  }
  if (result === undefined) throw missingCredentials();
  if (result.token === '') throw invalidRequest('empty access_token parameter');
  assertTokenSyntax(result.token);
  return result;
}
