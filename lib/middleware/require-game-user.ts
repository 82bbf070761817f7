import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { authenticateHttp } from '../adapters/http-entry.js';
import { AuthenticationCore, resolveAuthenticateOptions, type AuthenticateOptions } from '../auth/index.js';
import type { PlatformError } from '../errors/index.js';

/** Options of {@link requireGameUser}. */
export interface RequireGameUserOptions<U extends object = object> extends AuthenticateOptions<U, Request> {
  /** `false`: a request with no bearer credentials passes with no `req.user`. Default `true`. */
  credentialsRequired?: boolean | undefined;
}

/**
 * Express middleware (4 and 5) that authenticates the player and sets
 * `req.user`, or calls `next(platformError)` for `platformErrorHandler` to
 * render. It calls the authentication core directly: it needs neither
 * passport nor sessions (and works beside them). With
 * `credentialsRequired: false`, a request without bearer credentials goes on
 * with no `req.user`; a malformed or rejected token still fails. When the
 * client hangs up first, the platform call in flight for it is aborted.
 *
 * Every method is authenticated, `OPTIONS` included: answering CORS
 * preflights (which browsers send without credentials) is the CORS
 * middleware's job, mounted before this one.
 *
 * @example
 * ```ts
 * app.use('/api', requireGameUser({ client }));
 * app.get('/api/me', (req, res) => res.json({ member_no: req.user!.memberNo }));
 * app.use(platformErrorHandler());
 * ```
 */
export function requireGameUser<U extends object = object>(options: RequireGameUserOptions<U>): RequestHandler {
  const owner = 'requireGameUser';
  if (options !== null && typeof options === 'object' && 'passReqToCallback' in options) {
    throw new TypeError(`${owner}: options.passReqToCallback is not supported; use mapUser or authorize, which receive req`);
  }
  const core = new AuthenticationCore<U, Request>(resolveAuthenticateOptions(options, owner));
  const { credentialsRequired = true } = options;
  if (typeof credentialsRequired !== 'boolean') throw new TypeError(`${owner}: options.credentialsRequired must be a boolean`);

  return function requireGameUser(req: Request, res: Response, next: NextFunction): void {
    admitRequest(core, credentialsRequired, req, res, next);
  };
}

/** One request through the kit's HTTP way in: `req.user` set and `next()`, or `next(platformError)`. */
function admitRequest<U extends object>(core: AuthenticationCore<U, Request>, credentialsRequired: boolean, req: Request, res: Response, next: NextFunction): void {
  const verified = authenticateHttp(core, req, res);
  verified.then((user) => {
    req.user = user;
    next();
  }, (err: PlatformError) => {
    if (!credentialsRequired && err.kind === 'missing_credentials') next();
    else next(err);
  });
}
