import type { Request } from 'express';
import { rememberPassportFailure } from '../adapters/index.js';
import { authenticateHttp } from '../adapters/http-entry.js';
import { accessDenied, AuthenticationCore, resolveAuthenticateOptions, toPlatformError, type AuthenticateOptions } from '../auth/index.js';
import { isPlatformError } from '../errors/index.js';
import type { Logger } from '../types.js';
import { BearerBase } from './bearer-base.js';
import { runVerifyCallback, type VerifyCallback, type VerifyCallbackWithRequest } from './verify-callback.js';

/** Options of {@link PlatformBearerStrategy}. */
export interface PlatformBearerStrategyOptions<U extends object = object> extends AuthenticateOptions<U, Request> {
  /** `false`: a request with no bearer credentials passes with no `req.user`. Default `true`. */
  credentialsRequired?: boolean | undefined;
  /** `true`: the verify callback receives the request first. */
  passReqToCallback?: boolean | undefined;
}

/**
 * The actions passport (or `requireGameUser`) puts on the per-request object
 * it creates from the strategy; declared here so the package's types do not
 * need @types/passport.
 */
export interface StrategyActions {
  success(user: Express.User, info?: object): void;
  fail(challenge?: string | number, status?: number): void;
  redirect(url: string, status?: number): void;
  pass(): void;
  error(err: unknown): void;
}

/**
 * Passport strategy `'game-platform'`: RFC 6750 extraction (never the parent's, which
 * takes a token from a JSON body and misses duplicate headers), platform verification, then optional `mapUser`,
 * `authorize` and a passport-style verify callback. Caller mistakes end in
 * `fail()` (400/401 with a challenge, 403 without); platform or configuration
 * faults end in `error()`, never in a 401 that would send clients into a
 * re-login loop. Sessions are off unless a route asks for them explicitly.
 *
 * @example
 * ```ts
 * passport.use(new PlatformBearerStrategy({ client }));
 * app.get('/api/me', passport.authenticate('game-platform', { session: false, failWithError: true }),
 *   (req, res) => res.json(req.user));
 * app.use(platformErrorHandler());
 * ```
 */
export class PlatformBearerStrategy<U extends object = object> extends BearerBase {
  override name = 'game-platform';
  private readonly credentialsRequired: boolean;
  private readonly passReq: boolean;
  private readonly verifyUser: VerifyCallback | VerifyCallbackWithRequest | undefined;
  private readonly core: AuthenticationCore<U, Request>;
  private readonly logger: Logger;

  constructor(options: PlatformBearerStrategyOptions<U> & { passReqToCallback?: false | undefined }, verify?: VerifyCallback);
  constructor(options: PlatformBearerStrategyOptions<U> & { passReqToCallback: true }, verify: VerifyCallbackWithRequest);
  constructor(options: PlatformBearerStrategyOptions<U>, verify?: VerifyCallback | VerifyCallbackWithRequest) {
    const owner = 'PlatformBearerStrategy';
    const resolved = resolveAuthenticateOptions(options, owner);
    const { credentialsRequired = true, passReqToCallback = false } = options;
    if (typeof credentialsRequired !== 'boolean') throw new TypeError(`${owner}: options.credentialsRequired must be a boolean`);
    if (verify !== undefined && typeof verify !== 'function') throw new TypeError(`${owner}: verify must be a function`);
    // The parent insists on a verify function; its authenticate() is replaced below.
    super({ realm: resolved.realm }, () => {});
    this.credentialsRequired = credentialsRequired;
    this.passReq = passReqToCallback === true;
    this.verifyUser = verify;
    this.core = new AuthenticationCore(resolved);
    this.logger = resolved.logger;
  }

  /** Called by passport (or a test) on an instance carrying the actions. */
  override authenticate(req: Request, options?: { session?: boolean | undefined }): void {
    const actions = this as unknown as StrategyActions;
    // passport >= 0.6 answers 500 on success without a session store.
    // Passport hands the route's options object here and reads it again in success().
    if (options !== null && typeof options === 'object' && options.session === undefined) options.session = false;
    // One action per request, whatever happens; an action that throws is reported through error().
    let settled = false;
    const succeed = (user: Express.User, info: object | undefined): void => {
      if (settled) return;
      settled = true;
      try {
        actions.success(user, info);
      } catch (err) {
        this.escalate(actions, err);
      }
    };
    const failed = (err: unknown): void => {
      if (settled) return;
      settled = true;
      try {
        this.reject(actions, req, err);
      } catch (again) {
        // passport's fail() writes on the response it was given; a bare `{}` (Socket.IO's
        // recipe) cannot take a header, so the refusal itself goes to next(err) instead.
        this.escalate(actions, isPlatformError(err) && !err.isServerFault ? err.withRealm(this.core.realm) : again);
      }
    };
    let verified: Promise<Express.User>;
    try {
      // Express puts the response on the request (absent or null outside Express).
      verified = authenticateHttp(this.core, req, (req as { res?: unknown }).res);
    } catch (err) {
      // A request shape the core cannot read is refused through the actions, never thrown at the framework.
      return failed(err);
    }
    if (this.verifyUser === undefined) {
      verified.then((user) => succeed(user, undefined), failed);
    } else {
      verified.then((user) => this.callback(req, user)).then(({ user, info }) => succeed(user, info), failed);
    }
  }

  // The app's passport-style verify callback, after the core accepted the player.
  private async callback(req: Request, user: Express.User): Promise<{ user: Express.User; info: object | undefined }> {
    let result;
    try {
      result = await runVerifyCallback(this.verifyUser!, this.passReq, req, user);
    } catch (err) {
      throw toPlatformError(err, 'verify callback', this.logger).withRealm(this.core.realm);
    }
    if (result.user === false) throw accessDenied().withRealm(this.core.realm);
    return { user: result.user, info: result.info };
  }

  // fail() for the player's mistakes (400/401 with their challenge, 403 without:
  // passport writes challenges only on 401), error() for server-side faults.
  private reject(actions: StrategyActions, req: Request, err: unknown): void {
    const error = isPlatformError(err) ? err : toPlatformError(err, 'authentication', this.logger);
    if (error.kind === 'missing_credentials' && !this.credentialsRequired) return actions.pass();
    if (error.isServerFault) return actions.error(error);
    rememberPassportFailure(req, error);
    const challenge = error.status === 400 || error.status === 401 ? error.challenge : undefined;
    return challenge === undefined ? actions.fail(error.status) : actions.fail(challenge, error.status);
  }

  // An action threw before reaching next() (e.g. a session login without
  // passport.initialize()): report it once through error(), never rethrow.
  private escalate(actions: StrategyActions, err: unknown): void {
    try {
      actions.error(isPlatformError(err) ? err : toPlatformError(err, 'passport action', this.logger));
    } catch (again) {
      this.logger.error({ errorMessage: again instanceof Error ? again.message : String(again) }, 'passport-game-platform: error() threw');
    }
  }
}
