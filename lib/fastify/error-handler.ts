import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { faultLogger } from '../adapters/index.js';
import { checkLogger, guardedLogger } from '../auth/index.js';
import { isPlatformError, type PlatformError } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import type { Logger } from '../types.js';
import { verifierFailureOf } from './verifier-failure.js';

/** Options of {@link gamePlatformErrorHandler}. */
export interface GamePlatformErrorHandlerOptions {
  /** Where 503 and 500 answers are logged, once a minute per kind and code. Default: `console.error`. */
  logger?: Logger | undefined;
}

/** A Fastify error handler, for `app.setErrorHandler(...)`. */
export type FastifyErrorHandler = (error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) => FastifyReply;

// Another `@fastify/auth` verifier's refusal (its 401/403, or the 401 @fastify/auth sets when
// every verifier failed); a route's own fault after a verifier accepted stays the app's.
function isRefusal(error: Error, reply: FastifyReply): boolean {
  const own = (error as { statusCode?: unknown }).statusCode;
  const status = typeof own === 'number' ? own : reply.statusCode;
  return status === 401 || status === 403;
}

/**
 * Renders a `PlatformError` that a route throws (a member lookup that finds
 * nobody, a platform outage during `client.lookupMember`) as our problem
 * answer; anything else is rethrown to Fastify's default handler. The
 * `requireGameUser` hook answers its own failures and needs no handler.
 * Under `@fastify/auth`, a request that `verifyGameUser` and every other
 * verifier refused (401/403) is answered with `verifyGameUser`'s refusal.
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
  return function gamePlatformErrorHandler(error, request, reply) {
    const ours = verifierFailureOf(request);
    let rendered: PlatformError;
    if (isPlatformError(error)) rendered = error;
    else if (ours !== undefined && isRefusal(error, reply)) rendered = ours;
    else throw error;
    // verifyGameUser logged its own refusal already.
    if (rendered !== ours) logFault(rendered);
    const { status, headers, body } = problemResponse(rendered);
    return reply.code(status).headers(headers).send(JSON.stringify(body));
  };
}
