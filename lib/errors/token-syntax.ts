import { MAX_TOKEN_LENGTH } from '../config/defaults.js';
import { malformedToken } from './request-errors.js';

// RFC 6750 2.1 b64token. One character class then a run of '=': no
// backtracking, linear in the token's length.
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const PLACEHOLDERS = new Set(['undefined', 'null']);

// The token the authenticator has just found valid, so that the platform
// client's own check of the same string, made synchronously when the
// authenticator hands it over, is one comparison instead of a second scan.
// That check consumes it; a verifier that never checks leaves it until the
// next authentication replaces it. Only ever a token that passed the rule.
let justChecked: string | undefined;

/**
 * The one rule for what can be a user or web token, used by the request
 * authenticator and by the platform client alike. Throws `malformedToken`
 * (401 `invalid_token`, no platform call) unless `token` is a non-empty
 * string of RFC 6750 b64token characters, at most {@link MAX_TOKEN_LENGTH}
 * long, and not the `undefined`/`null` a buggy client stringifies.
 * Descriptions never echo the token.
 */
export function checkTokenSyntax(token: unknown): asserts token is string {
  if (token === justChecked && token !== undefined) {
    justChecked = undefined;
    return;
  }
  if (typeof token !== 'string' || token === '') throw malformedToken('the token must be a non-empty string');
  if (token.length > MAX_TOKEN_LENGTH) throw malformedToken(`token longer than ${MAX_TOKEN_LENGTH} characters`);
  if (!B64TOKEN.test(token)) throw malformedToken('token has characters outside the bearer token syntax');
  if (token.length <= 9 && PLACEHOLDERS.has(token.toLowerCase())) throw malformedToken('token is a placeholder value');
}

/**
 * Checks `token` and remembers it: the next {@link checkTokenSyntax} of the
 * same string (the platform client's, when the authenticator calls it
 * synchronously) returns at once.
 */
export function checkTokenSyntaxOnce(token: unknown): asserts token is string {
  checkTokenSyntax(token);
  justChecked = token;
}
