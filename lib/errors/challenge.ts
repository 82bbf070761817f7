/** What a challenge is made from: a `PlatformError`'s kind, action and description. */
export interface ChallengedError {
  readonly kind: string;
  readonly action: string;
  readonly description?: string | undefined;
}

/** Default realm of the `WWW-Authenticate` challenge. */
export const DEFAULT_REALM = 'game-platform';

// RFC 6750 3: error_description uses %x20-21 / %x23-5B / %x5D-7E, so quotes,
// backslashes and control characters (CR/LF: header injection) are dropped.
function quoted(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;
}

/**
 * The RFC 6750 `WWW-Authenticate` value for an error, or `undefined` when the
 * answer carries none (46217, 404, 5xx).
 *
 * A game's denial (`access_denied`: `authorize`, a verify callback) carries
 * `error="insufficient_scope"` (RFC 6750 3.1: the token is valid but does not
 * enable access here). 46217 carries none: the platform accepted the token and
 * refuses the device, none of RFC 6750's three error codes describes that
 * (`insufficient_scope` would send a client to ask for a broader token, which
 * cannot help), and the problem body's `action: register_device` says what to
 * do. Section 3's "MUST include WWW-Authenticate when the token does not enable
 * access" can be read to cover it; a bare `Bearer realm` would satisfy that
 * reading, but clients commonly treat any Bearer challenge as "log in again",
 * the re-login loop this package exists to avoid.
 */
export function challengeFor(error: ChallengedError, realm: string = DEFAULT_REALM): string | undefined {
  const parts = [`realm=${quoted(realm)}`];
  if (error.kind === 'missing_credentials') return `Bearer ${parts.join(', ')}`;
  // Only a malformed *authentication* request (action `login`) challenges; a
  // bad E3 query (action `none`) is not the client's credentials' fault.
  if (error.kind === 'invalid_request' && error.action === 'login') {
    parts.push('error="invalid_request"');
  } else if (error.kind === 'invalid_token') {
    parts.push('error="invalid_token"');
  } else if (error.kind === 'access_denied') {
    return `Bearer ${parts[0]}, error="insufficient_scope"`;
  } else {
    return undefined;
  }
  if (error.description) parts.push(`error_description=${quoted(error.description)}`);
  return `Bearer ${parts.join(', ')}`;
}
