// `fastify-protected` / `fastify-unprotected` (BENCH_FASTIFY_PROTECTED=1|0): the same `/api/me`
// route on Fastify, with or without `requireGameUser` (one PlatformClient, default options; the
// result cache on with BENCH_CACHE_TTL_MS, as `ours-cached`).
import Fastify from 'fastify';
import { createServer, type RequestListener } from 'node:http';
import { PlatformClient } from '../../lib/index.js';
import { fastifyGamePlatform } from '../../lib/fastify/index.js';
import { requireEnv, serveHttp } from './server-kit.js';

const protectedRoute = process.env.BENCH_FASTIFY_PROTECTED === '1';
let listener: RequestListener | undefined;
// The harness owns the listening server: Fastify only routes.
const app = Fastify({
  serverFactory: (handler) => {
    listener = handler;
    return createServer();
  },
});
const body = { member_no: '30000000000', guid: '300000000000' };
let client: PlatformClient | undefined;
if (protectedRoute) {
  client = new PlatformClient({
    baseUrl: requireEnv('PLATFORM_BASE_URL'),
    clientId: requireEnv('PLATFORM_CLIENT_ID'),
    clientSecret: requireEnv('PLATFORM_CLIENT_SECRET'),
    gameId: requireEnv('PLATFORM_GAME_ID'),
    ...(process.env.BENCH_CACHE_TTL_MS ? { cache: { ttlMs: Number(process.env.BENCH_CACHE_TTL_MS), maxEntries: Number(process.env.BENCH_CACHE_MAX_ENTRIES ?? 10_000) } } : {}),
  });
  await app.register(fastifyGamePlatform, { client });
  app.get('/api/me', { preHandler: app.requireGameUser }, async (request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { member_no: request.user!.memberNo, guid: request.user!.guid };
  });
} else {
  app.get('/api/me', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return body;
  });
}
await app.ready();
await serveHttp(listener!, undefined, () => void client?.close());
