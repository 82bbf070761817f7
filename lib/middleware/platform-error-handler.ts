import type { ErrorRequestHandler } from 'express';
import { consoleErrorLogger } from '../auth/default-logger.js';
import { LogThrottle } from '../client/log-throttle.js';
import type { Logger } from '../types.js';
import { classifyError } from './classify-error.js';
import { problemFor, sendProblem } from './problem.js';

/** Options of {@link platformErrorHandler}. */
export interface PlatformErrorHandlerOptions {
  /** Realm of `WWW-Authenticate`; default: the failing strategy's, else `'game-platform'`. */
  realm?: string | undefined;
  /**
   * Where 5xx and unexpected errors are logged (a platform outage or a
   * configuration fault: one line per kind and code a minute). Default: `console.error`.
   */
  logger?: Logger | undefined;
  /** Put a 5xx error's own message in `detail` (development only). Default `false`. */
  exposeDetail?: boolean | undefined;
}

/** At most one log line per kind of server fault (and code) in this window. */
export const SERVER_FAULT_LOG_WINDOW_MS = 60_000;

function describe(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { errorType: typeof err };
  return { errorName: err.name, errorMessage: err.message, stack: err.stack };
}

/**
 * Express error middleware rendering every authentication outcome as an
 * RFC 9457 `application/problem+json` body (`type`, `title`, `status`,
 * `action`, `code`, `detail`) with `WWW-Authenticate` on 400/401,
 * `Retry-After` on 503 and `Cache-Control: no-store`. It also renders
 * passport's `failWithError` errors, body-parser errors (400/413) and, as a
 * generic 500 without stack or message, anything else. Mount it last.
 *
 * @example
 * ```ts
 * app.get('/api/me', requireGameUser({ client }), (req, res) => res.json(req.user));
 * app.use(platformErrorHandler({ logger }));
 * ```
 */
export function platformErrorHandler(options: PlatformErrorHandlerOptions = {}): ErrorRequestHandler {
  const { realm, exposeDetail = false } = options;
  if (realm !== undefined && (typeof realm !== 'string' || realm === '')) {
    throw new TypeError('platformErrorHandler: options.realm must be a non-empty string');
  }
  if (options.logger !== undefined && (typeof options.logger?.error !== 'function' || typeof options.logger.warn !== 'function')) {
    throw new TypeError('platformErrorHandler: options.logger must have error() and warn() methods');
  }
  const logger = options.logger ?? consoleErrorLogger;
  // An outage or a misconfiguration fails every request: log it once a minute, not per request.
  const throttle = new LogThrottle(Date, SERVER_FAULT_LOG_WINDOW_MS);
  // Four parameters: Express recognises error middleware by its arity.
  return function platformErrorHandler(err, req, res, next) {
    if (res.headersSent) return next(err);
    const classified = classifyError(err, req);
    if ('problem' in classified) {
      if (classified.unexpected) logger.error(describe(err), 'passport-game-platform: unexpected error answered 500');
      return sendProblem(res, classified.problem);
    }
    const { error } = classified;
    if (error.isServerFault && throttle.allow(`${error.kind}:${error.code ?? ''}`)) {
      const fields = { kind: error.kind, code: error.code, status: error.status };
      if (error.kind === 'configuration') logger.error(fields, error.message);
      else logger.warn(fields, error.message);
    }
    sendProblem(res, problemFor(error, realm ?? classified.realm, { exposeDetail }));
  };
}
