import type { PlatformError } from './platform-error.js';

/** Default realm of the `WWW-Authenticate` challenge. */
export const DEFAULT_REALM = 'game-platform';

// RFC 6750 3: error_description uses %x20-21 / %x23-5B / %x5D-7E, so quotes,
// backslashes and control characters (CR/LF: header injection) are dropped.
function quoted(value: string): string {
  return `"${value.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, '')}"`;
}

/**
 * The RFC 6750 `WWW-Authenticate` value for an error, or `undefined` when the
 * answer carries none (403, 404, 5xx).
 */
export function challengeFor(error: PlatformError, realm: string = DEFAULT_REALM): string | undefined {
  const parts = [`realm=${quoted(realm)}`];
  if (error.kind === 'missing_credentials') return `Bearer ${parts.join(', ')}`;
  // Only a malformed *authentication* request (action `login`) challenges; a
  // bad E3 query (action `none`) is not the client's credentials' fault.
  if (error.kind === 'invalid_request' && error.action === 'login') {
    parts.push('error="invalid_request"');
  } else if (error.kind === 'invalid_token') {
    parts.push('error="invalid_token"');
  } else {
    return undefined;
  }
  if (error.description) parts.push(`error_description=${quoted(error.description)}`);
  return `Bearer ${parts.join(', ')}`;
}
