// A Fastify game backend protected by passport-game-platform/fastify.
import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger, PlatformClient } from 'passport-game-platform';
import { fastifyGamePlatform, gamePlatformErrorHandler } from 'passport-game-platform/fastify';

/** Builds the app without listening: `GET /healthz` (open) and `GET /api/me` (bearer). */
export async function buildFastifyApp(client: PlatformClient, logger?: Logger): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(fastifyGamePlatform, { client, logger });
  // PlatformErrors thrown by routes (a lookup during an outage) get the same problem answers.
  app.setErrorHandler(gamePlatformErrorHandler({ logger }));
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/api/me', { preHandler: app.requireGameUser }, async (request) => ({
    member_no: request.user!.memberNo,
    guid: request.user!.guid,
  }));
  // Routes under /open run unprotected, for the bench's side-by-side figures.
  app.get('/open/me', async () => ({ member_no: null }));
  return app;
}
