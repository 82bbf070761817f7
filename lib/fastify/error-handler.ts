import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { faultLogger } from '../adapters/fault-log.js';
import { guardedLogger } from '../auth/default-logger.js';
import { checkLogger } from '../auth/resolve-options.js';
import { isPlatformError } from '../errors/index.js';
import { problemResponse } from '../adapters/problem-response.js';
import type { Logger } from '../types.js';

/** Options of {@link gamePlatformErrorHandler}. */
export interface GamePlatformErrorHandlerOptions {
  /** Where 503 and 500 answers are logged, once a minute per kind and code. Default: `console.error`. */
  logger?: Logger | undefined;
}

/** A Fastify error handler, for `app.setErrorHandler(...)`. */
export type FastifyErrorHandler = (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

/**
 * Renders a `PlatformError` that a route throws (a member lookup that finds
 * nobody, a platform outage during `client.lookupMember`) as our problem
 * answer; anything else is rethrown to Fastify's default handler. The
 * `requireGameUser` hook answers its own failures and needs no handler.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { gamePlatformErrorHandler } from 'passport-game-platform/fastify';
 * const app = Fastify();
 * app.setErrorHandler(gamePlatformErrorHandler());
 * ```
 */
export function gamePlatformErrorHandler(options: GamePlatformErrorHandlerOptions = {}): FastifyErrorHandler {
  const logFault = faultLogger(guardedLogger(checkLogger(options.logger, 'gamePlatformErrorHandler')));
  return function gamePlatformErrorHandler(error, _request, reply) {
    if (!isPlatformError(error)) throw error;
    logFault(error);
    const { status, headers, body } = problemResponse(error);
    return reply.code(status).headers(headers).send(JSON.stringify(body));
  };
}
