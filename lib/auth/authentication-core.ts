import { PlatformError, checkTokenSyntaxOnce, isPlatformError } from '../errors/index.js';
import type { GameUser, Logger, UserTokenVerifier } from '../types.js';
import { accessDenied } from './access-denied.js';
import { assertSameSite } from './cross-site.js';
import { findBearerToken } from './extract-token.js';
import type { ResolvedAuthenticateOptions } from './resolve-options.js';
import type { AuthenticateCallOptions, AuthorizeUser, AuthRequest, MapUser, TokenContext, TokenSource, TokenSources } from './types.js';
import { toPlatformError } from './unexpected-error.js';
import { acceptsAbortable, bridgeSignal } from '../platform-call/index.js';

// What the hooks see when a bare token comes with no request.
const NO_REQUEST: AuthRequest = Object.freeze({ headers: Object.freeze({}) });

/**
 * The authentication core over checked options: find the token (no platform
 * call for a malformed request), check its syntax, verify it with the client
 * (header, query and body tokens with `verifyUserToken`, cookie tokens with
 * `verifyWebToken`), then run `mapUser` and `authorize`, in one pass. Every
 * rejection is a `PlatformError` in this core's realm. The adapter kit takes
 * requests in through {@link userFromRequest}, sockets' tokens through {@link userFromToken}.
 */
export class AuthenticationCore<U extends object, R extends AuthRequest> {
  /** The realm of this core's challenges. */
  readonly realm: string;
  readonly #client: UserTokenVerifier;
  readonly #logger: Logger;
  readonly #mapUser: MapUser<U, R> | undefined;
  readonly #authorize: AuthorizeUser<U, R> | undefined;
  readonly #tokenFrom: Readonly<TokenSources>;
  readonly #allowedOrigins: ReadonlySet<string>;
  /** The package's client takes the adapters' light hang-up signal as it is. */
  readonly #lightSignals: boolean;
  #reportedBadAnswer = false;

  constructor(resolved: ResolvedAuthenticateOptions<U, R>) {
    this.realm = resolved.realm;
    this.#client = resolved.client;
    this.#logger = resolved.logger;
    this.#mapUser = resolved.mapUser;
    this.#authorize = resolved.authorize;
    this.#tokenFrom = resolved.tokenFrom;
    this.#allowedOrigins = resolved.allowedOrigins;
    this.#lightSignals = acceptsAbortable(resolved.client);
  }

  /** Extracts the request's token, verifies it, runs `mapUser` and `authorize`. */
  userFromRequest(req: R, options?: AuthenticateCallOptions): Promise<GameUser & U> {
    let found: { token: string; source: TokenSource };
    try {
      found = findBearerToken(req, this.#tokenFrom);
      if (found.source === 'cookie') assertSameSite(req, this.#allowedOrigins);
      checkTokenSyntaxOnce(found.token);
    } catch (err) {
      return Promise.reject(this.#reject(err, 'token extraction'));
    }
    return this.verifyFound(found.token, found.source, req, options?.signal);
  }

  /**
   * The same for a bare token (a socket's handshake or first message, an
   * in-band refresh): same syntax check, verification and hooks. The hooks
   * receive `context.req`, or a request with no headers when none is given.
   */
  userFromToken(value: string, context?: TokenContext<R>): Promise<GameUser & U> {
    const source = context?.source ?? 'header';
    try {
      if (source === 'cookie' && this.#client.verifyWebToken === undefined) {
        throw new TypeError('a cookie token needs a client with a verifyWebToken(token) method');
      }
      if (source === 'cookie' && context?.req !== undefined) assertSameSite(context.req, this.#allowedOrigins);
      checkTokenSyntaxOnce(value);
    } catch (err) {
      return Promise.reject(this.#reject(err, 'token check'));
    }
    return this.verifyFound(value, source, (context?.req ?? NO_REQUEST) as R, context?.signal);
  }

  /**
   * A token already found and checked (its syntax, and for a cookie the
   * origin): the client's verification, then `mapUser` and `authorize`.
   */
  async verifyFound(token: string, source: TokenSource, req: R, given: AbortSignal | undefined): Promise<GameUser & U> {
    const client = this.#client;
    // The adapters hand over the package's light hang-up signal (see adapters/leave-watch.ts): the
    // package's client takes it as it is, any other verifier gets a real AbortSignal following it.
    const bridge = given === undefined || this.#lightSignals || given instanceof AbortSignal ? undefined : bridgeSignal(given);
    const signal = bridge === undefined ? given : bridge.signal;
    let verified: GameUser;
    try {
      // Method calls keep `this` bound to the client; the options bag only when there is a signal.
      verified = source === 'cookie'
        ? await (signal === undefined ? client.verifyWebToken!(token) : client.verifyWebToken!(token, { signal }))
        : await (signal === undefined ? client.verifyUserToken(token) : client.verifyUserToken(token, { signal }));
    } catch (err) {
      throw this.#reject(err, 'token verifier');
    } finally {
      bridge?.release();
    }
    const { memberNo, guid } = (verified ?? {}) as Partial<Record<keyof GameUser, unknown>>;
    if (typeof memberNo !== 'string' || (guid !== null && typeof guid !== 'string')) {
      throw this.#reject(new TypeError('the verifier did not return a GameUser'), 'token verifier');
    }
    let user: GameUser & U;
    // An answer of the outage grace keeps its mark, so the route (and a live session) can tell.
    const grace = verified.servedInGrace === true;
    const mapUser = this.#mapUser;
    if (mapUser === undefined) {
      user = (grace ? { memberNo, guid, servedInGrace: true } : { memberNo, guid }) as GameUser & U;
    } else {
      try {
        // The platform's identifiers win over anything the hook returns.
        user = { ...(await mapUser(verified, req)), memberNo, guid };
      } catch (err) {
        throw this.#reject(err, 'mapUser hook');
      }
      if (grace) user.servedInGrace = true;
    }
    const authorize = this.#authorize;
    if (authorize !== undefined) {
      let allowed: unknown;
      try {
        allowed = await authorize(user, req);
      } catch (err) {
        throw this.#reject(err, 'authorize hook');
      }
      if (allowed === false) throw this.#reject(accessDenied(), 'authorize hook');
      // A count, a string or null is a programming error, never an allow (`countBans()` returning 0).
      if (allowed !== true && allowed !== undefined) throw this.#badAuthorizeAnswer(allowed);
    }
    return user;
  }

  /** Every rejection goes through here: a PlatformError in this realm, nothing else. */
  #reject(err: unknown, stage: string): PlatformError {
    const error = isPlatformError(err) ? err : toPlatformError(err, stage, this.#logger);
    return error.realm === this.realm ? error : error.withRealm(this.realm);
  }

  #badAuthorizeAnswer(answer: unknown): PlatformError {
    if (!this.#reportedBadAnswer) {
      this.#reportedBadAnswer = true;
      this.#logger.error({ stage: 'authorize hook', returned: typeof answer },
        `passport-game-platform: authorize must return true, false or nothing; it returned a ${typeof answer}: answered 500 (logged once)`);
    }
    return new PlatformError({ kind: 'configuration', realm: this.realm, message: 'The authorize hook returned something other than true, false or nothing; see the server log.' });
  }
}
