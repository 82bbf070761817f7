import type { ErrorRequestHandler } from 'express';
import { checkLogger, checkRealm, describeThrown, guardedLogger } from '../auth/index.js';
import { faultLogger, passportFailureOf } from '../adapters/index.js';
import type { Logger } from '../types.js';
import { describeError, isAuthenticationError, sendProblem } from '../problem/index.js';

/** Options of {@link platformErrorHandler}. */
export interface PlatformErrorHandlerOptions {
  /** Realm of `WWW-Authenticate`; default: the one of the authenticator or strategy that failed. */
  realm?: string | undefined;
  /**
   * Where 5xx and unexpected errors are logged (a platform outage or a
   * configuration fault: one line per kind and code a minute). Default: `console.error`.
   */
  logger?: Logger | undefined;
  /** Put a 5xx error's own message in `detail` (development only). Default `false`. */
  exposeDetail?: boolean | undefined;
}

/**
 * Express error middleware rendering every authentication outcome with
 * `problemResponse`: an RFC 9457 `application/problem+json` body (`type`,
 * `title`, `status`, `action`, `code`, `detail`) with `WWW-Authenticate` on
 * 400/401 and on the 403 of a game's denial (`insufficient_scope`),
 * `Retry-After` on 503 and `Cache-Control: no-store`. It also renders
 * passport's `failWithError` errors (keeping every challenge passport wrote
 * for a chain of strategies), body-parser errors (400/413) and, as a generic
 * 500 without stack or message, anything else. Its logger is guarded: a
 * throwing logger never keeps a request from its answer. Mount it last.
 *
 * @example
 * ```ts
 * app.get('/api/me', requireGameUser({ client }), (req, res) => res.json(req.user));
 * app.use(platformErrorHandler({ logger }));
 * ```
 */
export function platformErrorHandler(options: PlatformErrorHandlerOptions = {}): ErrorRequestHandler {
  const owner = 'platformErrorHandler';
  const realm = options.realm === undefined ? undefined : checkRealm(options.realm, owner);
  const logger = guardedLogger(checkLogger(options.logger, owner));
  const exposeDetail = options.exposeDetail === true;
  const logFault = faultLogger(logger);
  // Four parameters: Express recognises error middleware by its arity.
  return function platformErrorHandler(err, req, res, next) {
    if (res.headersSent) return next(err);
    let subject: unknown = err;
    const fromPassport = isAuthenticationError(err);
    if (fromPassport) {
      // passport's failWithError keeps only the status; our strategy left the full error.
      const failure = passportFailureOf(req);
      if (failure !== undefined && failure.status === err.status) subject = failure;
    }
    const { response, error, unexpected } = describeError(subject, { realm, exposeDetail });
    if (unexpected) {
      logger.error(err instanceof Error ? describeThrown(err) : { errorType: typeof err }, 'passport-game-platform: unexpected error answered 500');
    }
    if (error !== undefined) logFault(error);
    // passport has already written every failed strategy's challenge (ours
    // included) on a 401: keep them all rather than only ours.
    sendProblem(res, { body: response.body, headers: response.headers }, { keepChallenges: fromPassport });
  };
}
