import { PlatformError } from '../errors/index.js';
import type { GameUser } from '../types.js';
import { accessDenied } from './access-denied.js';
import { extractBearerToken } from './extract-token.js';
import { resolveAuthenticateOptions, type ResolvedAuthenticateOptions } from './resolve-options.js';
import type { AuthenticateOptions, AuthRequest, ExtractedToken } from './types.js';
import { toPlatformError } from './unexpected-error.js';

/** Authenticates one request; see {@link createAuthenticator}. */
export type Authenticator<U extends object, R extends AuthRequest> = (req: R) => Promise<GameUser & U>;

function isGameUser(value: unknown): value is GameUser {
  if (value === null || typeof value !== 'object') return false;
  const { memberNo, guid } = value as Record<string, unknown>;
  return typeof memberNo === 'string' && (guid === null || typeof guid === 'string');
}

async function verify<U extends object, R extends AuthRequest>(
  found: ExtractedToken,
  options: ResolvedAuthenticateOptions<U, R>,
): Promise<GameUser> {
  const { client, logger } = options;
  let user: unknown;
  try {
    // Method calls keep `this` bound to the client.
    user = found.source === 'cookie' && client.verifyWebToken
      ? await client.verifyWebToken(found.token)
      : await client.verifyUserToken(found.token);
  } catch (err) {
    throw toPlatformError(err, 'token verifier', logger);
  }
  if (!isGameUser(user)) throw toPlatformError(new TypeError('the verifier did not return a GameUser'), 'token verifier', logger);
  return user;
}

async function run<U extends object, R extends AuthRequest>(req: R, options: ResolvedAuthenticateOptions<U, R>): Promise<GameUser & U> {
  const found = extractBearerToken(req, options.tokenFrom);
  const verified = await verify(found, options);
  let user = { memberNo: verified.memberNo, guid: verified.guid } as GameUser & U;
  if (options.mapUser) {
    let extra: U;
    try {
      extra = await options.mapUser(verified, req);
    } catch (err) {
      throw toPlatformError(err, 'mapUser hook', options.logger);
    }
    // The platform's identifiers win over anything the hook returns.
    user = { ...extra, memberNo: verified.memberNo, guid: verified.guid };
  }
  if (options.authorize) {
    let allowed: boolean | void;
    try {
      allowed = await options.authorize(user, req);
    } catch (err) {
      throw toPlatformError(err, 'authorize hook', options.logger);
    }
    if (allowed === false) throw accessDenied();
  }
  return user;
}

/**
 * Builds the framework-free authentication core: extract the token (no
 * platform call for a malformed request), verify it with the client (header,
 * query and body tokens with `verifyUserToken`, cookie tokens with
 * `verifyWebToken`), then run `mapUser` and `authorize`. Options are checked
 * once, here. The returned function rejects only with a `PlatformError`.
 *
 * @example
 * ```ts
 * const authenticate = createAuthenticator({ client });
 * const user = await authenticate(req); // { memberNo: '20005061986', guid: '200000000397' }
 * ```
 */
export function createAuthenticator<U extends object = object, R extends AuthRequest = AuthRequest>(
  options: AuthenticateOptions<U, R>,
): Authenticator<U, R> {
  return authenticatorFor(resolveAuthenticateOptions(options, 'createAuthenticator'));
}

/** {@link createAuthenticator} over options already checked by an adapter. */
export function authenticatorFor<U extends object, R extends AuthRequest>(
  resolved: ResolvedAuthenticateOptions<U, R>,
): Authenticator<U, R> {
  return async (req: R) => {
    try {
      return await run(req, resolved);
    } catch (err) {
      throw err instanceof PlatformError ? err : toPlatformError(err, 'authentication', resolved.logger);
    }
  };
}

/**
 * One-shot form of {@link createAuthenticator}; prefer the factory on hot paths.
 */
export function authenticateRequest<U extends object = object, R extends AuthRequest = AuthRequest>(
  req: R,
  options: AuthenticateOptions<U, R>,
): Promise<GameUser & U> {
  return createAuthenticator(options)(req);
}
