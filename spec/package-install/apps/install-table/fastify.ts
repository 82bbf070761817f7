// The Fastify row: the plugin and its route hook, typed request.user.
import Fastify from 'fastify';
import { PlatformClient } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { fastifyGamePlatform } from 'passport-game-platform/fastify';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const app = Fastify();
await app.register(fastifyGamePlatform, { client });
app.get('/api/me', { preHandler: app.requireGameUser }, async (request) => ({ member_no: request.user!.memberNo }));
const url = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/me`;
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const valid = (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
const none = (await fetch(url)).status;
process.stdout.write(`${JSON.stringify({ '200 for a valid token': valid === 200, '401 for none': none === 401 })}\n`);
await app.close();
await client.close();
await emulator.close();
