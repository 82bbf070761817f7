// One app with the newest release of every framework and peer, compiled under
// strict without skipLibCheck, then run: a valid token, a 46217 and no token
// through Express, Nest and Fastify (with @fastify/jwt beside our plugin), and
// a socket through Socket.IO, ws and Colyseus. Prints one JSON line.
import 'reflect-metadata';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import Fastify from 'fastify';
import fastifyJwt from '@fastify/jwt';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Server as SocketIoServer } from 'socket.io';
import { io as socketIoClient } from 'socket.io-client';
import WebSocket from 'ws';
import { Room, Server as ColyseusServer, type AuthContext, type Client as ColyseusClient } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { createAuthenticator, isPlatformError, PlatformClient, platformErrorHandler, requireGameUser, type GameUser as Player } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { fastifyGamePlatform, type FastifyGameUser } from 'passport-game-platform/fastify';
import { GamePlatformGuard, GamePlatformModule, GameUser } from 'passport-game-platform/nest';
import { attachWebSocket } from 'passport-game-platform/ws';
import { SessionRegistry } from 'passport-game-platform/realtime';
import { useSocketIoAuth } from 'passport-game-platform/socket.io';
import { gamePlatformRoomAuth } from 'passport-game-platform/colyseus';
import { joinWithSession, joinWithUrlToken } from './colyseus-client.mjs';

// @fastify/jwt types request.user as well: both declarations live in one program.
interface AdminClaims { admin: true; sub: string }
declare module 'passport-game-platform/fastify' {
  interface FastifyRequestUserType { user: unknown }
}
declare module '@fastify/jwt' {
  interface FastifyJWT { payload: AdminClaims; user: FastifyGameUser | AdminClaims }
}

type Answer = { status: number; type: string | null; body: Record<string, unknown> };
const emulator = await startEmulator();
const config = { baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' };
const client = new PlatformClient(config);
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client });
const token = (member: string): string => emulator.login(member).access_token;
const listen = (server: HttpServer): Promise<number> => new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)));

async function answers(base: string): Promise<{ valid: Answer; device: Answer; none: Answer }> {
  const get = async (bearer: string | undefined): Promise<Answer> => {
    const res = await fetch(`${base}/api/me`, { headers: bearer === undefined ? {} : { authorization: `Bearer ${bearer}` } });
    return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as Record<string, unknown> };
  };
  return { valid: await get(token(DEFAULT_MEMBERS.player)), device: await get(token(DEFAULT_MEMBERS.unregisteredDevice)), none: await get(undefined) };
}

// Express, with Socket.IO and ws on the same server.
const app = express();
app.get('/api/me', requireGameUser({ client }), (req, res) => {
  res.json({ member_no: (req.user as Player).memberNo });
});
app.use(platformErrorHandler());
const httpServer = createServer(app);
const io = new SocketIoServer(httpServer);
useSocketIoAuth(io, { authenticate, registry });
attachWebSocket(httpServer, { authenticate, registry, path: '/ws' });
const expressPort = await listen(httpServer);
const expressResult = await answers(`http://127.0.0.1:${expressPort}`);

const socketIo = await new Promise<Record<string, unknown>>((resolve, reject) => {
  const socket = socketIoClient(`http://127.0.0.1:${expressPort}`, { auth: { token: token(DEFAULT_MEMBERS.player) }, transports: ['websocket'] });
  socket.on('session', (session: Record<string, unknown>) => {
    socket.close();
    resolve(session);
  });
  socket.on('connect_error', reject);
});
const ws = await new Promise<Record<string, unknown>>((resolve, reject) => {
  const socket = new WebSocket(`ws://127.0.0.1:${expressPort}/ws`, { headers: { authorization: `Bearer ${token(DEFAULT_MEMBERS.player)}` } });
  socket.on('message', (data) => {
    const message = JSON.parse(String(data)) as Record<string, unknown>;
    if (message.type !== 'session') return;
    socket.close();
    resolve(message);
  });
  socket.on('error', reject);
});

// Nest.
@Controller('api')
@UseGuards(GamePlatformGuard)
class MeController {
  @Get('me')
  me(@GameUser() user: Player): { member_no: string } {
    return { member_no: user.memberNo };
  }
}
@Module({ imports: [GamePlatformModule.forRoot({ client })], controllers: [MeController] })
class AppModule {}
const nest = await NestFactory.create(AppModule, { logger: false });
await nest.listen(0, '127.0.0.1');
const nestResult = await answers(`http://127.0.0.1:${(nest.getHttpServer().address() as AddressInfo).port}`);

// Fastify: our plugin for players, @fastify/jwt for an admin route.
const fastify = Fastify();
await fastify.register(fastifyJwt, { secret: 'admin-secret-for-the-test' });
await fastify.register(fastifyGamePlatform, { client });
fastify.get('/api/me', { preHandler: fastify.requireGameUser }, async (request) => ({ member_no: (request.user as FastifyGameUser).memberNo }));
fastify.get('/admin', async (request) => {
  const claims = await request.jwtVerify<AdminClaims>();
  return { admin: claims.admin };
});
const fastifyUrl = await fastify.listen({ port: 0, host: '127.0.0.1' });
const fastifyResult = await answers(fastifyUrl);
const adminStatus = (await fetch(`${fastifyUrl}/admin`, { headers: { authorization: `Bearer ${fastify.jwt.sign({ admin: true, sub: 'ops' })}` } })).status;

// Colyseus: the join options carry the token; the room sends `session`.
const auth = gamePlatformRoomAuth({ authenticate, registry });
class Lobby extends Room {
  override onCreate(): void {
    auth.register(this);
  }
  override onAuth(c: ColyseusClient, options: unknown, context: AuthContext): Promise<Player> {
    return auth.onAuth(c, options, context);
  }
}
const colyseusHttp = createServer();
const gameServer = new ColyseusServer({ transport: new WebSocketTransport({ server: colyseusHttp }), greet: false });
gameServer.define('lobby', Lobby);
await gameServer.listen(0, '127.0.0.1');
const colyseusUrl = `ws://127.0.0.1:${(colyseusHttp.address() as AddressInfo).port}`;
const colyseus = await joinWithSession(colyseusUrl, token(DEFAULT_MEMBERS.player));
const urlToken = await joinWithUrlToken(colyseusUrl, token(DEFAULT_MEMBERS.player));

const error = await client.verifyUserToken('x'.repeat(10)).catch((err: unknown) => err);
process.stdout.write(`${JSON.stringify({ express: expressResult, nest: nestResult, fastify: fastifyResult, adminStatus, socketIo, ws, colyseus, urlToken, isPlatformError: isPlatformError(error) })}\n`);
process.exit(0);
