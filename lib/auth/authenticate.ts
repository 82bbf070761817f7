import type { GameUser } from '../types.js';
import { AuthenticationCore } from './authentication-core.js';
import { resolveAuthenticateOptions } from './resolve-options.js';
import type { AuthenticateCallOptions, AuthenticateOptions, AuthRequest, TokenContext, UserTokenVerifier } from './types.js';

export type { AuthenticateCallOptions, TokenContext } from './types.js';

/**
 * The framework-free authentication core built by {@link createAuthenticator}.
 * Every call rejects only with a `PlatformError` that already carries what an
 * adapter answers with: `status`, `action`, `code`, `challenge`
 * (`WWW-Authenticate`, in this authenticator's realm) and `retryAfter`.
 */
export interface Authenticator<U extends object = object, R extends AuthRequest = AuthRequest> {
  /** Extracts the request's token, verifies it, runs `mapUser` and `authorize`. */
  (req: R, options?: AuthenticateCallOptions): Promise<GameUser & U>;
  /**
   * The same for a bare token (a socket's handshake or first message, an
   * in-band refresh): same syntax check, verification and hooks. The hooks
   * receive `context.req`, or a request with no headers when none is given.
   */
  token(token: string, context?: TokenContext<R>): Promise<GameUser & U>;
  /** The realm of this authenticator's challenges. */
  readonly realm: string;
}

function isClient(value: unknown): value is UserTokenVerifier {
  return value !== null && typeof value === 'object' && typeof (value as UserTokenVerifier).verifyUserToken === 'function';
}

/**
 * Builds the framework-free authentication core: extract the token (no
 * platform call for a malformed request), check its syntax, verify it with
 * the client (header, query and body tokens with `verifyUserToken`, cookie
 * tokens with `verifyWebToken`), then run `mapUser` and `authorize`, in one
 * pass. Options are checked once, here. The real-time adapters (WebSocket,
 * Socket.IO, Colyseus) take the result; an application can call it from any
 * framework and render its errors with `problemResponse`.
 *
 * @example
 * ```ts
 * const authenticate = createAuthenticator(client, { realm: 'my-game' });
 * const user = await authenticate(req); // { memberNo: '20005061986', guid: '200000000397' }
 * const same = await authenticate.token(tokenFromSocket, { req: upgradeRequest });
 * ```
 */
export function createAuthenticator<U extends object = object, R extends AuthRequest = AuthRequest>(
  client: UserTokenVerifier,
  options?: Omit<AuthenticateOptions<U, R>, 'client'>,
): Authenticator<U, R>;
export function createAuthenticator<U extends object = object, R extends AuthRequest = AuthRequest>(
  options: AuthenticateOptions<U, R>,
): Authenticator<U, R>;
export function createAuthenticator<U extends object, R extends AuthRequest>(
  first: UserTokenVerifier | AuthenticateOptions<U, R>,
  options?: Omit<AuthenticateOptions<U, R>, 'client'>,
): Authenticator<U, R> {
  const all = isClient(first) ? { ...options, client: first } : first;
  const core = new AuthenticationCore<U, R>(resolveAuthenticateOptions(all, 'createAuthenticator'));
  const authenticate = (req: R, call?: AuthenticateCallOptions): Promise<GameUser & U> => core.userFromRequest(req, call);
  const token = (value: string, context?: TokenContext<R>): Promise<GameUser & U> => core.userFromToken(value, context);
  return Object.assign(authenticate, { token, realm: core.realm });
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
