// A Fastify-only app: compiled under strict without skipLibCheck, then run.
import Fastify from 'fastify';
import { PlatformClient, type GameUser } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { fastifyGamePlatform } from 'passport-game-platform/fastify';
import { check } from './check.mjs';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const app = Fastify();
await app.register(fastifyGamePlatform, { client, mapUser: (user: GameUser) => ({ tag: `m${user.memberNo}` }) });
app.get('/api/me', { preHandler: app.requireGameUser }, async (request) => {
  const memberNo: string = request.user!.memberNo; // typed by declaration merging
  const guid: string | null = request.user!.guid;
  return { member_no: memberNo, guid };
});
const url = await app.listen({ port: 0, host: '127.0.0.1' });
await check(url, emulator, DEFAULT_MEMBERS);
await app.close();
client.close();
await emulator.close();
