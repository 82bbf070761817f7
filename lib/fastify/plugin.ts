import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { adapterCore, type AdapterOptions } from '../adapters/index.js';
import { isPlatformError } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import { rememberVerifierFailure } from './verifier-failure.js';
// request.user's typing lives beside the plugin; loaded with it.
import './request-user.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Route hook (`preHandler` or `onRequest`) that authenticates the player or answers our problem body. */
    requireGameUser: preHandlerAsyncHookHandler;
    /**
     * Verifier for `@fastify/auth`: sets `request.user`, or throws our `PlatformError`
     * without answering, so `app.auth([app.verifyGameUser, other])` can fall through.
     */
    verifyGameUser: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
  }
}

/**
 * Options of {@link fastifyGamePlatform}: `client` (a `PlatformClient`),
 * `realm`, `tokenFrom`, `mapUser`, `authorize`, `logger`. Hooks receive the
 * Fastify request.
 */
export type FastifyGamePlatformOptions<U extends object = object> = AdapterOptions<U, FastifyRequest>;

const OWNER = 'passport-game-platform/fastify';

const plugin: FastifyPluginAsync<FastifyGamePlatformOptions> = async (fastify: FastifyInstance, options) => {
  const core = adapterCore(options, OWNER);
  if (!fastify.hasRequestDecorator('user')) fastify.decorateRequest('user', undefined);
  fastify.decorate('requireGameUser', async function requireGameUser(request: FastifyRequest, reply: FastifyReply) {
    try {
      request.user = await core.authenticate(request, reply);
    } catch (err) {
      core.logFault(err);
      const { status, headers, body } = problemResponse(err);
      return reply.code(status).headers(headers).send(JSON.stringify(body));
    }
    return undefined;
  });
  fastify.decorate('verifyGameUser', async function verifyGameUser(request: FastifyRequest, reply: FastifyReply) {
    try {
      request.user = await core.authenticate(request, reply);
    } catch (err) {
      // Faults are logged here: the error handler never sees ours when another verifier accepts.
      core.logFault(err);
      if (isPlatformError(err)) rememberVerifierFailure(request, err);
      throw err;
    }
  });
};

/**
 * Fastify plugin (5.x, registered with `fastify-plugin`, so it is not
 * encapsulated): decorates the instance with `requireGameUser`, a route hook
 * that sets `request.user` or answers with our `application/problem+json`
 * body and its `WWW-Authenticate`, `Retry-After` and `Cache-Control: no-store`
 * headers. Two `Authorization` headers are read from the raw request and
 * answered 400. No session, no `@fastify/passport`.
 *
 * It also decorates `verifyGameUser` for `@fastify/auth`: it sets
 * `request.user` or throws our `PlatformError` without answering, so
 * `app.auth([app.verifyGameUser, apiKey])` falls through to `apiKey`. With
 * `app.setErrorHandler(gamePlatformErrorHandler())`, a request every verifier
 * refused gets our problem answer (our refusal, even when another verifier's
 * error came last).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * import { fastifyGamePlatform } from 'passport-game-platform/fastify';
 *
 * const client = new PlatformClient(fromEnv());
 * const app = Fastify();
 * await app.register(fastifyGamePlatform, { client });
 * app.get('/api/me', { preHandler: app.requireGameUser }, async (request) => ({
 *   member_no: request.user!.memberNo,
 *   guid: request.user!.guid,
 * }));
 * ```
 *
 * @example
 * ```ts
 * import Fastify, { type FastifyRequest } from 'fastify';
 * import fastifyAuth from '@fastify/auth';
 * import { PlatformClient } from 'passport-game-platform';
 * import { fastifyGamePlatform, gamePlatformErrorHandler } from 'passport-game-platform/fastify';
 *
 * const client = new PlatformClient({ environment: 'live', clientId: 'id', clientSecret: 'secret', gameId: 'MYGAME' });
 * const app = Fastify();
 * await app.register(fastifyGamePlatform, { client });
 * await app.register(fastifyAuth);
 * app.setErrorHandler(gamePlatformErrorHandler());
 * const serverKey = async (request: FastifyRequest) => {
 *   if (request.headers['x-server-key'] !== process.env.SERVER_KEY) throw new Error('not a game server');
 * };
 * app.get('/api/scores', { preHandler: app.auth([app.verifyGameUser, serverKey]) }, async () => ({ ok: true }));
 * ```
 */
export const fastifyGamePlatform = fp(plugin, { fastify: '5.x', name: 'passport-game-platform' });
