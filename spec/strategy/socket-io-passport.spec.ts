import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket as ClientSocket } from 'socket.io-client';
import { PlatformBearerStrategy, type StrategyActions } from '../../lib/strategy/index.js';
import { loadPassport } from '../support/http-apps.js';
import { recordingLogger } from '../support/recording-logger.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

const passport = await loadPassport();
const describeWithPassport = passport === undefined ? describe.skip : describe;

// Socket.IO's own passport recipe: the strategy sees the handshake request, whose `res`
// is null on the polling transport, and passport gets a bare `{}` as the response.
describeWithPassport('the strategy as Socket.IO middleware (polling first)', () => {
  let http: HttpServer;
  let io: Server;
  let url: string;
  const clients: ClientSocket[] = [];
  const crashes: unknown[] = [];
  const onCrash = (err: unknown): void => {
    crashes.push(err);
  };

  beforeAll(async () => {
    process.prependListener('uncaughtException', onCrash);
    passport.use(new PlatformBearerStrategy({ client: fakeVerifier(), logger: recordingLogger() }));
    http = createServer();
    io = new Server(http);
    io.use((socket, next) => {
      (passport.authenticate('game-platform', { session: false }) as (req: unknown, res: unknown, next: (err?: unknown) => void) => void)(
        socket.request,
        {},
        next as (err?: unknown) => void,
      );
    });
    io.on('connection', (socket) => socket.emit('hello', (socket.request as { user?: { memberNo?: string } }).user?.memberNo));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const c of clients) c.close();
    await io.close();
    process.off('uncaughtException', onCrash);
  });

  function open(headers: Record<string, string>): ClientSocket {
    const client = connect(url, { extraHeaders: headers, reconnection: false, transports: ['polling', 'websocket'] });
    clients.push(client);
    return client;
  }

  it('connects a valid token and tells the socket who it is', async () => {
    const client = open({ Authorization: 'Bearer okTok' });
    const memberNo = await new Promise((resolve, reject) => {
      client.on('hello', resolve);
      client.on('connect_error', reject);
    });
    expect(memberNo).toBe('90071992547409931');
    expect(crashes).toEqual([]);
  });

  it.each([
    ['no token', {}, /No bearer token/],
    ['a refused token', { Authorization: 'Bearer code40000' }, /40000/],
    ['a platform outage', { Authorization: 'Bearer down' }, /try again later/],
  ])('refuses %s with connect_error naming the refusal, and the process lives', async (_name, headers, message) => {
    const client = open(headers);
    const err = await new Promise<Error>((resolve, reject) => {
      client.on('connect_error', resolve);
      client.on('connect', () => reject(new Error('connected')));
    });
    expect(err).toBeInstanceOf(Error);
    expect(err.message).toMatch(message);
    expect(crashes).toEqual([]);
  });
});

describe('any request shape gets an answer, never a throw', () => {
  function run(req: object): Promise<string> {
    const strategy = new PlatformBearerStrategy({ client: fakeVerifier(), logger: recordingLogger() });
    return new Promise((resolve, reject) => {
      const actions: StrategyActions = {
        success: () => resolve('success'),
        fail: () => resolve('fail'),
        redirect: () => resolve('redirect'),
        pass: () => resolve('pass'),
        error: () => resolve('error'),
      };
      try {
        Object.assign(Object.create(strategy) as PlatformBearerStrategy, actions).authenticate(req as never, {});
      } catch (err) {
        reject(err);
      }
    });
  }
  const headers = { authorization: 'Bearer okTok' };

  it.each([
    ['res null', { headers, res: null }],
    ['res absent', { headers }],
    ['res {} without once', { headers, res: {} }],
    ['res with once but no off', { headers, res: { once() {} } }],
    ['res a string', { headers, res: 'x' }],
  ])('%s', async (_name, req) => {
    await expect(run(req)).resolves.toBe('success');
  });

  it.each([
    ['no headers at all', {}],
    ['a socket-like object', { id: 'abc', data: {}, handshake: { auth: {} }, emit() {} }],
    ['headers that are not an object', { headers: 'Bearer okTok' }],
  ])('%s: refused through the actions', async (_name, req) => {
    await expect(run(req)).resolves.toMatch(/^(fail|error)$/);
  });
});
