import { MAX_TOKEN_LENGTH } from '../config/index.js';
import { malformedToken } from '../errors/index.js';

// RFC 6750 2.1 b64token.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const PLACEHOLDERS = new Set(['undefined', 'null']);

/**
 * Throws `malformedToken` (401 `invalid_token`) unless `token` can be a bearer
 * token: RFC 6750 characters, at most {@link MAX_TOKEN_LENGTH}, and not the
 * `undefined`/`null` a buggy client stringifies. Descriptions never echo the token.
 */
export function assertTokenSyntax(token: string): void {
  if (token.length > MAX_TOKEN_LENGTH) {
    throw malformedToken(`token longer than ${MAX_TOKEN_LENGTH} characters`);
  }
  if (!B64TOKEN.test(token)) {
    throw malformedToken('token has characters outside the bearer token syntax');
  }
  if (PLACEHOLDERS.has(token.toLowerCase())) {
    throw malformedToken('token is a placeholder value');
  }
}
