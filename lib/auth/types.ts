import type { IncomingHttpHeaders } from 'node:http';
import type { GameUser, Logger, UserTokenVerifier } from '../types.js';

export type { UserTokenVerifier, VerifyCallOptions } from '../types.js';

/**
 * The parts of an incoming request that authentication reads. An Express or
 * plain Node `IncomingMessage` satisfies it; tests can pass a literal.
 */
export interface AuthRequest {
  method?: string | undefined;
  /** The request target, used to read the query string exactly as sent. */
  url?: string | undefined;
  originalUrl?: string | undefined;
  headers: IncomingHttpHeaders;
  /** Node's per-name header lists; used to detect repeated `Authorization`. */
  headersDistinct?: Record<string, string[] | undefined> | undefined;
  rawHeaders?: string[] | undefined;
  /** Parsed query, read only when `url`/`originalUrl` are absent. */
  query?: unknown;
  /** Parsed body; read only for form (and multipart) content types. */
  body?: unknown;
  /** Parsed cookies (cookie-parser), read only when there is no `Cookie` header. */
  cookies?: unknown;
  /**
   * The scheme the app is served on as the framework reads it (Express's and
   * Fastify's `req.protocol`, which follow `trust proxy`); read only by the
   * cookie-write origin check.
   */
  protocol?: unknown;
  /** The connection (`encrypted` on TLS): the scheme when the framework gives none. */
  socket?: unknown;
}

/** Where a bearer token was found. */
export type TokenSource = 'header' | 'query' | 'body' | 'cookie';

/** A syntactically valid token and where it came from. */
export interface ExtractedToken {
  token: string;
  source: TokenSource;
}

/**
 * Places a token is accepted from besides the `Authorization` header. All off
 * by default (RFC 6750 2.2 and 2.3 are optional and leak tokens into logs).
 */
export interface TokenSources {
  /** Accept `?access_token=` (RFC 6750 2.3). Default `false`. */
  query?: boolean | undefined;
  /** Accept a form-encoded body's `access_token` on non-GET requests (RFC 6750 2.2). Default `false`. */
  body?: boolean | undefined;
  /**
   * Name of a cookie holding the platform's web access token (observed: `'SUAT'`).
   * Cookie tokens are verified as web tokens. Default: cookies are not read.
   * State-changing requests (not GET, HEAD, OPTIONS) with a cookie token
   * must come from the app's own origin or `allowedOrigins` (403 `cross_site`).
   */
  cookie?: string | undefined;
}

/** Adds app data to the verified player; the result is merged into `req.user`. */
export type MapUser<U extends object, R extends AuthRequest> = (user: GameUser, req: R) => U | Promise<U>;

/**
 * Decides whether a verified player may proceed: `false` answers 403
 * `access_denied`; throw {@link accessDenied} to give a `code` and detail.
 */
export type AuthorizeUser<U extends object, R extends AuthRequest> = (
  user: GameUser & U,
  req: R,
) => boolean | void | Promise<boolean | void>;

/** Options of {@link createAuthenticator} and the adapters built on it. */
export interface AuthenticateOptions<U extends object = object, R extends AuthRequest = AuthRequest> {
  /** The platform client (or anything with `verifyUserToken`). */
  client: UserTokenVerifier;
  /** `realm` of the `WWW-Authenticate` challenges. Default `'game-platform'`. */
  realm?: string | undefined;
  tokenFrom?: TokenSources | undefined;
  /**
   * Other origins (`'https://events.example.com'`) whose pages may send
   * state-changing requests authenticated by the web token cookie. The app's
   * own origin (the request's `Host`) is always allowed. Default: none.
   */
  allowedOrigins?: readonly string[] | undefined;
  mapUser?: MapUser<U, R> | undefined;
  authorize?: AuthorizeUser<U, R> | undefined;
  /** Where unexpected hook errors are logged. Default: `console.error`. */
  logger?: Logger | undefined;
}

/** Per-request options of an `Authenticator` call. */
export interface AuthenticateCallOptions {
  /** Abort when nobody waits for the answer any more; handed to the platform client. */
  signal?: AbortSignal | undefined;
}

/** Where a bare token came from, for `Authenticator.token`. */
export interface TokenContext<R extends AuthRequest = AuthRequest> extends AuthenticateCallOptions {
  /** The request behind the token (a WebSocket upgrade, a Nest or Fastify request); given to the hooks. */
  req?: R | undefined;
  /** `'cookie'` verifies a web token (`verifyWebToken`); anything else a user token. Default `'header'`. */
  source?: TokenSource | undefined;
}
