import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { adapterCore, type AdapterOptions } from '../adapters/adapter-core.js';
import { problemResponse } from '../adapters/problem-response.js';
import type { GameUser } from '../types.js';

/**
 * The player on `request.user`. Extend it by declaration merging when
 * `mapUser` adds fields:
 * `declare module 'passport-game-platform/fastify' { interface FastifyGameUser { level: number } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FastifyGameUser extends GameUser {}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `requireGameUser`. */
    user?: FastifyGameUser | undefined;
  }
  interface FastifyInstance {
    /** Route hook (`preHandler` or `onRequest`) that authenticates the player or answers our problem body. */
    requireGameUser: preHandlerAsyncHookHandler;
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
};

/**
 * Fastify plugin (5.x, registered with `fastify-plugin`, so it is not
 * encapsulated): decorates the instance with `requireGameUser`, a route hook
 * that sets `request.user` or answers with our `application/problem+json`
 * body and its `WWW-Authenticate`, `Retry-After` and `Cache-Control: no-store`
 * headers. Two `Authorization` headers are read from the raw request and
 * answered 400. No session, no `@fastify/passport`.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { PlatformClient } from 'passport-game-platform';
 * import { fastifyGamePlatform } from 'passport-game-platform/fastify';
 *
 * const client = new PlatformClient({ environment: 'live', clientId: 'id', clientSecret: 'secret', gameId: 'MYGAME' });
 * const app = Fastify();
 * await app.register(fastifyGamePlatform, { client });
 * app.get('/api/me', { preHandler: app.requireGameUser }, async (request) => ({
 *   member_no: request.user!.memberNo,
 *   guid: request.user!.guid,
 * }));
 * ```
 */
export const fastifyGamePlatform = fp(plugin, { fastify: '5.x', name: 'passport-game-platform' });
