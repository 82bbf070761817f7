import 'reflect-metadata';
import { Injectable, Module, UseGuards, type ExecutionContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { ConnectedSocket, SubscribeMessage, WebSocketGateway } from '@nestjs/websockets';
import type { AddressInfo } from 'node:net';
import passport from 'passport';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { GamePlatformGuard, GamePlatformModule, GameUser, passportResult } from '../../lib/nest/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { recordingLogger } from '../support/recording-logger.js';
import { useAdapterEmulator } from '../support/http-emulator-client.js';

const { fixture, clients } = useAdapterEmulator();

interface Player {
  memberNo: string;
}
interface SocketWithData {
  data: { user?: Player };
}

@Injectable()
class SocketAuthGuard extends AuthGuard('game-platform-ws') {
  override getRequest(context: ExecutionContext): unknown {
    return context.switchToWs().getClient<{ request: unknown }>().request;
  }
}

@Injectable()
class SocketPassportGuard extends SocketAuthGuard {
  override handleRequest<T>(err: unknown, user: T, info: unknown, context: ExecutionContext): T {
    return passportResult(err, user, info, context);
  }
}

@WebSocketGateway()
class MatchGateway {
  @UseGuards(GamePlatformGuard)
  @SubscribeMessage('whoami')
  whoami(@GameUser() user: Player, @ConnectedSocket() client: SocketWithData): { member_no: string; on_client: string | undefined } {
    return { member_no: user.memberNo, on_client: client.data.user?.memberNo };
  }

  @UseGuards(SocketAuthGuard)
  @SubscribeMessage('plain')
  plain(): string {
    return 'served';
  }

  @UseGuards(SocketPassportGuard)
  @SubscribeMessage('recipe')
  recipe(@GameUser() user: Player): { member_no: string } {
    return { member_no: user.memberNo };
  }
}

type NestApp = Awaited<ReturnType<typeof NestFactory.create>>;
let app: NestApp;
let url: string;
const sockets: ClientSocket[] = [];

beforeAll(async () => {
  // @nestjs/passport in a gateway: the strategy reads the Socket.IO handshake request.
  passport.use('game-platform-ws', new PlatformBearerStrategy({ client: clients.create(), logger: recordingLogger() }));
  @Module({ imports: [GamePlatformModule.forRoot({ client: clients.create(), logger: recordingLogger() })], providers: [MatchGateway] })
  class GatewayModule {}
  app = await NestFactory.create(GatewayModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const s of sockets) s.close();
  await app.close();
  clients.closeAll();
});

// Default transports: polling first, as a browser or a stock client connects.
function open(options: { token?: string; auth?: Record<string, unknown>; query?: Record<string, string> } = {}): Promise<ClientSocket> {
  const socket = connect(url, {
    reconnection: false,
    ...(options.token === undefined ? {} : { extraHeaders: { authorization: `Bearer ${options.token}` } }),
    ...(options.auth === undefined ? {} : { auth: options.auth }),
    ...(options.query === undefined ? {} : { query: options.query }),
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

// The handler's acknowledgement, or the `exception` event the guard's refusal becomes.
function send(socket: ClientSocket, event: string): Promise<{ ack?: unknown; exception?: Record<string, unknown> }> {
  return new Promise((resolve) => {
    const onException = (exception: Record<string, unknown>): void => resolve({ exception });
    socket.once('exception', onException);
    socket.emit(event, {}, (ack: unknown) => {
      socket.off('exception', onException);
      resolve({ ack });
    });
  });
}

const e2Calls = (): number => fixture.emulator.requests({ endpoint: 'E2' }).length;
const login = (member: string): string => fixture.emulator.login(member).access_token;

describe('GamePlatformGuard in a Socket.IO gateway', () => {
  it('takes the token from the handshake header, puts the player on client.data.user and @GameUser(), one platform call per client', async () => {
    const socket = await open({ token: login(DEFAULT_MEMBERS.player) });
    expect(await send(socket, 'whoami')).toEqual({ ack: { member_no: DEFAULT_MEMBERS.player, on_client: DEFAULT_MEMBERS.player } });
    expect(await send(socket, 'whoami')).toEqual({ ack: { member_no: DEFAULT_MEMBERS.player, on_client: DEFAULT_MEMBERS.player } });
    expect(e2Calls()).toBe(1);
  });

  it('takes the token from handshake.auth.token', async () => {
    const socket = await open({ auth: { token: login(DEFAULT_MEMBERS.player) } });
    expect(await send(socket, 'whoami')).toEqual({ ack: { member_no: DEFAULT_MEMBERS.player, on_client: DEFAULT_MEMBERS.player } });
  });

  it('refuses without a token with the exception event carrying status and action, and no platform call', async () => {
    const socket = await open();
    expect(await send(socket, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 401, action: 'login' }) });
    expect(e2Calls()).toBe(0);
  });

  it('refuses a token in the URL (400), with no platform call', async () => {
    const socket = await open({ query: { access_token: login(DEFAULT_MEMBERS.player) } });
    expect(await send(socket, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 400, action: 'login' }) });
    expect(e2Calls()).toBe(0);
  });

  it('answers a rejected token relogin 40000 and a 46217 register_device, once per client', async () => {
    const refused = await open({ token: 'not-a-live-token-0123456789' });
    expect(await send(refused, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 401, action: 'relogin', code: 40000 }) });
    expect(await send(refused, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 401, action: 'relogin', code: 40000 }) });
    expect(e2Calls()).toBe(1);
    const device = await open({ token: login(DEFAULT_MEMBERS.unregisteredDevice) });
    expect(await send(device, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 403, action: 'register_device', code: 46217 }) });
  });

  it('answers a platform outage 503 retry_later, and asks again at the next message once it heals', async () => {
    const socket = await open({ token: login(DEFAULT_MEMBERS.player) });
    fixture.emulator.injectFault({ type: 'code', code: 50000, endpoint: 'E2', count: -1 });
    expect(await send(socket, 'whoami')).toEqual({ exception: expect.objectContaining({ status: 503, action: 'retry_later' }) });
    fixture.emulator.clearFaults();
    expect(await send(socket, 'whoami')).toEqual({ ack: { member_no: DEFAULT_MEMBERS.player, on_client: DEFAULT_MEMBERS.player } });
  });
});

describe('@nestjs/passport AuthGuard in a Socket.IO gateway (getRequest() returns the handshake request)', () => {
  it('serves a valid token (the polling handshake request has res: null)', async () => {
    const socket = await open({ token: login(DEFAULT_MEMBERS.player) });
    expect(await send(socket, 'plain')).toEqual({ ack: 'served' });
  });

  it('with passportResult: @GameUser() has the player, and refusals carry our action and code', async () => {
    const socket = await open({ token: login(DEFAULT_MEMBERS.player) });
    expect(await send(socket, 'recipe')).toEqual({ ack: { member_no: DEFAULT_MEMBERS.player } });
    const none = await open();
    expect(await send(none, 'recipe')).toEqual({ exception: expect.objectContaining({ status: 401, action: 'login' }) });
    const device = await open({ token: login(DEFAULT_MEMBERS.unregisteredDevice) });
    expect(await send(device, 'recipe')).toEqual({ exception: expect.objectContaining({ status: 403, action: 'register_device', code: 46217 }) });
  });
});
