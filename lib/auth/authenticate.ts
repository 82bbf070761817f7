import { PlatformError, checkTokenSyntaxOnce, isPlatformError } from '../errors/index.js';
import type { GameUser } from '../types.js';
import { accessDenied } from './access-denied.js';
import { assertSameSite } from './cross-site.js';
import { findBearerToken } from './extract-token.js';
import { resolveAuthenticateOptions, type ResolvedAuthenticateOptions } from './resolve-options.js';
import type { AuthenticateOptions, AuthRequest, TokenSource, UserTokenVerifier } from './types.js';
import { toPlatformError } from './unexpected-error.js';
import { acceptsAbortable, bridgeSignal } from '../platform-call/signal-bridge.js';

/** Per-request options of an {@link Authenticator} call. */
export interface AuthenticateCallOptions {
  /** Abort when nobody waits for the answer any more; handed to the platform client. */
  signal?: AbortSignal | undefined;
}

/** Where a bare token came from, for {@link Authenticator.token}. */
export interface TokenContext<R extends AuthRequest = AuthRequest> extends AuthenticateCallOptions {
  /** The request behind the token (a WebSocket upgrade, a Nest or Fastify request); given to the hooks. */
  req?: R | undefined;
  /** `'cookie'` verifies a web token (`verifyWebToken`); anything else a user token. Default `'header'`. */
  source?: TokenSource | undefined;
}

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

// What the hooks see when a bare token comes with no request.
const NO_REQUEST: AuthRequest = Object.freeze({ headers: Object.freeze({}) });

function isClient(value: unknown): value is UserTokenVerifier {
  return value !== null && typeof value === 'object' && typeof (value as UserTokenVerifier).verifyUserToken === 'function';
}

/**
 * Builds the framework-free authentication core: extract the token (no
 * platform call for a malformed request), check its syntax, verify it with
 * the client (header, query and body tokens with `verifyUserToken`, cookie
 * tokens with `verifyWebToken`), then run `mapUser` and `authorize`, in one
 * pass. Options are checked once, here; adapters (Express, Passport,
 * WebSocket, Nest, Fastify) wrap the result and render its errors with
 * `problemResponse`.
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
  return authenticatorFor(resolveAuthenticateOptions(all, 'createAuthenticator'));
}

/** {@link createAuthenticator} over options already checked by an adapter (which names itself in errors). */
export function authenticatorFor<U extends object, R extends AuthRequest>(
  resolved: ResolvedAuthenticateOptions<U, R>,
): Authenticator<U, R> {
  const { client, realm, logger, mapUser, authorize, tokenFrom, allowedOrigins } = resolved;
  const lightSignals = acceptsAbortable(client);
  let reportedBadAnswer = false;

  // Every rejection goes through here: a PlatformError in this realm, nothing else.
  const reject = (err: unknown, stage: string): PlatformError => {
    const error = isPlatformError(err) ? err : toPlatformError(err, stage, logger);
    return error.realm === realm ? error : error.withRealm(realm);
  };

  function badAuthorizeAnswer(answer: unknown): PlatformError {
    if (!reportedBadAnswer) {
      reportedBadAnswer = true;
      logger.error({ stage: 'authorize hook', returned: typeof answer },
        `passport-game-platform: authorize must return true, false or nothing; it returned a ${typeof answer}: answered 500 (logged once)`);
    }
    return new PlatformError({ kind: 'configuration', realm, message: 'The authorize hook returned something other than true, false or nothing; see the server log.' });
  }

  async function complete(token: string, source: TokenSource, req: R, given: AbortSignal | undefined): Promise<GameUser & U> {
    let verified: GameUser;
    // The adapters hand over the package's light hang-up signal (see adapters/leave-watch.ts): the
    // package's client takes it as it is, any other verifier gets a real AbortSignal following it.
    const bridge = given === undefined || lightSignals || given instanceof AbortSignal ? undefined : bridgeSignal(given);
    const signal = bridge === undefined ? given : bridge.signal;
    try {
      // Method calls keep `this` bound to the client; the options bag only when there is a signal.
      verified = source === 'cookie'
        ? await (signal === undefined ? client.verifyWebToken!(token) : client.verifyWebToken!(token, { signal }))
        : await (signal === undefined ? client.verifyUserToken(token) : client.verifyUserToken(token, { signal }));
    } catch (err) {
      throw reject(err, 'token verifier');
    } finally {
      bridge?.release();
    }
    const { memberNo, guid } = (verified ?? {}) as Partial<Record<keyof GameUser, unknown>>;
    if (typeof memberNo !== 'string' || (guid !== null && typeof guid !== 'string')) {
      throw reject(new TypeError('the verifier did not return a GameUser'), 'token verifier');
    }
    let user: GameUser & U;
    // An answer of the outage grace keeps its mark, so the route (and a live session) can tell.
    const grace = verified.servedInGrace === true;
    if (mapUser === undefined) {
      user = (grace ? { memberNo, guid, servedInGrace: true } : { memberNo, guid }) as GameUser & U;
    } else {
      try {
        // The platform's identifiers win over anything the hook returns.
        user = { ...(await mapUser(verified, req)), memberNo, guid };
      } catch (err) {
        throw reject(err, 'mapUser hook');
      }
      if (grace) user.servedInGrace = true;
    }
    if (authorize !== undefined) {
      let allowed: unknown;
      try {
        allowed = await authorize(user, req);
      } catch (err) {
        throw reject(err, 'authorize hook');
      }
      if (allowed === false) throw reject(accessDenied(), 'authorize hook');
      // A count, a string or null is a programming error, never an allow (`countBans()` returning 0).
      if (allowed !== true && allowed !== undefined) throw badAuthorizeAnswer(allowed);
    }
    return user;
  }

  const authenticate = (req: R, options?: AuthenticateCallOptions): Promise<GameUser & U> => {
    let token: string;
    let source: TokenSource;
    try {
      ({ token, source } = findBearerToken(req, tokenFrom));
      if (source === 'cookie') assertSameSite(req, allowedOrigins);
      checkTokenSyntaxOnce(token);
    } catch (err) {
      return Promise.reject(reject(err, 'token extraction'));
    }
    return complete(token, source, req, options?.signal);
  };

  const token = (value: string, context?: TokenContext<R>): Promise<GameUser & U> => {
    const source = context?.source ?? 'header';
    try {
      if (source === 'cookie' && client.verifyWebToken === undefined) {
        throw new TypeError('a cookie token needs a client with a verifyWebToken(token) method');
      }
      if (source === 'cookie' && context?.req !== undefined) assertSameSite(context.req, allowedOrigins);
      checkTokenSyntaxOnce(value);
    } catch (err) {
      return Promise.reject(reject(err, 'token check'));
    }
    return complete(value, source, (context?.req ?? NO_REQUEST) as R, context?.signal);
  };

  return Object.assign(authenticate, { token, realm });
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
