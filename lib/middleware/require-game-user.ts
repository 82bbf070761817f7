import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { failureFor } from '../auth/failure-record.js';
import { resolveAuthenticateOptions } from '../auth/resolve-options.js';
import { missingCredentials } from '../errors/index.js';
import { PlatformBearerStrategy, type PlatformBearerStrategyOptions, type StrategyActions } from '../strategy/platform-bearer-strategy.js';
import '../strategy/express-augment.js';

/** Options of {@link requireGameUser}: the strategy's, without a verify callback. */
export type RequireGameUserOptions<U extends object = object> = Omit<PlatformBearerStrategyOptions<U>, 'passReqToCallback'>;

/**
 * Express middleware (4 and 5) that authenticates the player and sets
 * `req.user`, or calls `next(platformError)` for `platformErrorHandler` to
 * render. It runs {@link PlatformBearerStrategy} the way passport does, so it
 * needs neither `passport.initialize()` nor sessions (and works beside them).
 * With `credentialsRequired: false`, a request without bearer credentials
 * goes on with no `req.user`; a malformed or rejected token still fails.
 *
 * @example
 * ```ts
 * app.use('/api', requireGameUser({ client }));
 * app.get('/api/me', (req, res) => res.json({ member_no: req.user!.memberNo }));
 * app.use(platformErrorHandler());
 * ```
 */
export function requireGameUser<U extends object = object>(options: RequireGameUserOptions<U>): RequestHandler {
  if (options !== null && typeof options === 'object' && 'passReqToCallback' in options) {
    throw new TypeError('requireGameUser: options.passReqToCallback is not supported; use mapUser or authorize, which receive req');
  }
  resolveAuthenticateOptions(options, 'requireGameUser'); // errors name this function
  const strategy = new PlatformBearerStrategy<U>({ ...options, passReqToCallback: false });
  return function requireGameUser(req: Request, _res: Response, next: NextFunction): void {
    // One object per request carrying the actions, as passport.authenticate() builds it.
    const run = Object.create(strategy) as PlatformBearerStrategy<U> & StrategyActions;
    run.success = (user: Express.User) => {
      req.user = user;
      next();
    };
    run.fail = () => next(failureFor(req) ?? missingCredentials());
    run.error = (err: unknown) => next(err);
    run.pass = () => next();
    run.redirect = () => next(new Error('requireGameUser: unexpected redirect'));
    run.authenticate(req, {});
  };
}
