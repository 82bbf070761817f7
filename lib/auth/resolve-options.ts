import type { Logger } from '../types.js';
import { consoleErrorLogger } from './default-logger.js';
import type { AuthenticateOptions, AuthRequest, AuthorizeUser, MapUser, TokenSources, UserTokenVerifier } from './types.js';

/** {@link AuthenticateOptions} checked once, with defaults filled in. */
export interface ResolvedAuthenticateOptions<U extends object, R extends AuthRequest> {
  readonly client: UserTokenVerifier;
  readonly tokenFrom: Readonly<TokenSources>;
  readonly mapUser: MapUser<U, R> | undefined;
  readonly authorize: AuthorizeUser<U, R> | undefined;
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

/**
 * Checks authentication options at construction; a wrong option throws a
 * `TypeError` naming it (`owner` says who was being constructed).
 */
export function resolveAuthenticateOptions<U extends object, R extends AuthRequest>(
  options: AuthenticateOptions<U, R>,
  owner: string,
): ResolvedAuthenticateOptions<U, R> {
  if (options === null || typeof options !== 'object') throw new TypeError(`${owner}: options must be an object`);
  const { client, tokenFrom = {}, mapUser, authorize, logger } = options;
  if (client === null || typeof client !== 'object' || typeof client.verifyUserToken !== 'function') {
    throw new TypeError(`${owner}: options.client must have a verifyUserToken(token) method (a PlatformClient)`);
  }
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
  optionalFunction(mapUser, owner, 'mapUser');
  optionalFunction(authorize, owner, 'authorize');
  if (logger !== undefined && (logger === null || typeof logger.error !== 'function')) {
    throw new TypeError(`${owner}: options.logger must have error() and warn() methods`);
  }
  return Object.freeze({
    client,
    tokenFrom: Object.freeze({ query: tokenFrom.query === true, body: tokenFrom.body === true, cookie: tokenFrom.cookie }),
    mapUser,
    authorize,
    logger: logger ?? consoleErrorLogger,
  });
}
