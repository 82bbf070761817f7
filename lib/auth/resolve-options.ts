import { DEFAULT_REALM } from '../errors/index.js';
import type { Logger } from '../types.js';
import { guardedLogger } from './default-logger.js';
import type { AuthenticateOptions, AuthRequest, AuthorizeUser, MapUser, TokenSources, UserTokenVerifier } from './types.js';

/** {@link AuthenticateOptions} checked once, with defaults filled in. */
export interface ResolvedAuthenticateOptions<U extends object, R extends AuthRequest> {
  readonly client: UserTokenVerifier;
  readonly realm: string;
  readonly tokenFrom: Readonly<TokenSources>;
  /** Origins allowed to send state-changing cookie-authenticated requests, besides the app's own. */
  readonly allowedOrigins: ReadonlySet<string>;
  readonly mapUser: MapUser<U, R> | undefined;
  readonly authorize: AuthorizeUser<U, R> | undefined;
  /** The given logger, wrapped so that a logger that throws cannot break a request. */
  readonly logger: Logger;
}

// RFC 6265 cookie-name (an RFC 9110 token).
const COOKIE_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function optionalFunction(value: unknown, owner: string, name: string): void {
  if (value !== undefined && typeof value !== 'function') {
    throw new TypeError(`${owner}: options.${name} must be a function`);
  }
}

function optionalBoolean(value: unknown, owner: string, name: string): void {
  if (value !== undefined && typeof value !== 'boolean') {
    throw new TypeError(`${owner}: options.${name} must be a boolean`);
  }
}

/** Checks a logger option (`error()` and `warn()` are what the package calls). */
export function checkLogger(logger: unknown, owner: string): Logger | undefined {
  if (logger === undefined) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- narrowed from `object` for the checks below
  const l = logger as Partial<Logger> | null;
  if (l === null || typeof l !== 'object' || typeof l.error !== 'function' || typeof l.warn !== 'function') {
    throw new TypeError(`${owner}: options.logger must have error() and warn() methods`);
  }
  return logger as Logger;
}

function isOrigin(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value;
  } catch {
    return false;
  }
}

function checkOrigins(value: unknown, owner: string): ReadonlySet<string> {
  if (value === undefined) return new Set();
  if (!Array.isArray(value) || !value.every(isOrigin)) {
    throw new TypeError(`${owner}: options.allowedOrigins must be an array of origins such as 'https://events.example.com'`);
  }
  return new Set(value as string[]);
}

/** Checks a realm option. */
export function checkRealm(realm: unknown, owner: string): string {
  if (realm === undefined) return DEFAULT_REALM;
  if (typeof realm !== 'string' || realm === '') throw new TypeError(`${owner}: options.realm must be a non-empty string`);
  return realm;
}

/**
 * Checks authentication options at construction, once; a wrong option throws
 * a `TypeError` naming it (`owner` says who was being constructed).
 */
export function resolveAuthenticateOptions<U extends object, R extends AuthRequest>(
  options: AuthenticateOptions<U, R>,
  owner: string,
): ResolvedAuthenticateOptions<U, R> {
  if (options === null || typeof options !== 'object') throw new TypeError(`${owner}: options must be an object`);
  const { client, tokenFrom = {}, mapUser, authorize } = options;
  if (client === null || typeof client !== 'object' || typeof client.verifyUserToken !== 'function') {
    throw new TypeError(`${owner}: options.client must have a verifyUserToken(token) method (a PlatformClient)`);
  }
  const realm = checkRealm(options.realm, owner);
  if (tokenFrom === null || typeof tokenFrom !== 'object') throw new TypeError(`${owner}: options.tokenFrom must be an object`);
  optionalBoolean(tokenFrom.query, owner, 'tokenFrom.query');
  optionalBoolean(tokenFrom.body, owner, 'tokenFrom.body');
  if (tokenFrom.cookie !== undefined) {
    if (typeof tokenFrom.cookie !== 'string' || !COOKIE_NAME.test(tokenFrom.cookie)) {
      throw new TypeError(`${owner}: options.tokenFrom.cookie must be a cookie name such as 'SUAT'`);
    }
    if (typeof client.verifyWebToken !== 'function') {
      throw new TypeError(`${owner}: options.tokenFrom.cookie needs a client with a verifyWebToken(token) method`);
    }
  }
  const allowedOrigins = checkOrigins(options.allowedOrigins, owner);
  optionalFunction(mapUser, owner, 'mapUser');
  optionalFunction(authorize, owner, 'authorize');
  const logger = checkLogger(options.logger, owner);
  return Object.freeze({
    client,
    realm,
    tokenFrom: Object.freeze({ query: tokenFrom.query === true, body: tokenFrom.body === true, cookie: tokenFrom.cookie }),
    allowedOrigins,
    mapUser,
    authorize,
    logger: guardedLogger(logger),
  });
}
