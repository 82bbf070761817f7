import type { IncomingMessage } from 'node:http';
import { locateBearerToken, type AuthRequest } from '../auth/index.js';
import { invalidRequest, missingCredentials } from '../errors/index.js';

/** Where a connection's token was found. */
export interface HandshakeToken {
  token: string;
  source: 'header' | 'cookie';
  /** The registry's `now()` when its verification began (set by the adapter; see `ConnectionInit.since`). */
  since?: number | undefined;
}

/**
 * The upgrade (or Socket.IO handshake) request as the core reads it. The
 * method is not a safe one, so a token from the cookie must pass the core's
 * cross-site check (a page of another site cannot open a socket with the
 * player's cookie).
 */
export function handshakeView(req: IncomingMessage): AuthRequest {
  return {
    method: 'WEBSOCKET',
    url: req.url,
    headers: req.headers,
    rawHeaders: req.rawHeaders,
    // The cross-site check compares origins with the scheme this server is served on: TLS or not.
    socket: req.socket,
    get headersDistinct() {
      return req.headersDistinct;
    },
  };
}

const NO_COOKIE = Object.freeze({});

/**
 * The handshake's token: `Authorization: Bearer`, else the web token cookie
 * (when `cookie` names it), or the Socket.IO `auth.token` given as
 * `explicit`. A token in the URL is refused (400), a token in two places too.
 * Throws `missingCredentials()` when there is none. `since` is carried into
 * the result as it is.
 */
export function handshakeToken(view: AuthRequest, cookie: string | undefined, explicit?: unknown, since?: number): HandshakeToken {
  const found = locateBearerToken(view, cookie === undefined ? NO_COOKIE : { cookie });
  if (explicit === undefined) {
    if (found === undefined) throw missingCredentials();
    return { token: found.token, source: found.source === 'cookie' ? 'cookie' : 'header', since };
  }
  if (typeof explicit !== 'string') throw invalidRequest('auth.token must be a string');
  if (found !== undefined && found.source !== 'cookie') throw invalidRequest('token sent in more than one place');
  // An explicit token wins over the ambient cookie.
  return { token: explicit, source: 'header', since };
}
