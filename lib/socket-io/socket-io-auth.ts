import type { DefaultEventsMap, Namespace, Server, Socket } from 'socket.io';
import type { Authenticator } from '../auth/index.js';
import { integerOption } from '../config/index.js';
import { invalidRequest, shuttingDown } from '../errors/index.js';
import { problemResponse, type ProblemBody } from '../problem/index.js';
import { admitHandshake, handshakeToken, handshakeView, OVERTAKEN, PendingHandshakes, type HandshakeToken } from '../adapters/index.js';
import type { ConnectionEnding, LiveConnection, SessionRegistry } from '../realtime/index.js';
import type { EventsMap, GameSocket, GameSocketData } from './game-socket.js';
import { NamespaceSessions } from './namespace-sessions.js';
import { boundOutput, DEFAULT_MAX_QUEUED_BYTES, droppedForBound } from './output-bound.js';

/** Options of {@link useSocketIoAuth}. */
export interface SocketIoAuthOptions {
  /** The core authenticator (`createAuthenticator(client, ...)`). */
  authenticate: Authenticator<object, never>;
  /** The live-session registry shared with the other transports. */
  registry: SessionRegistry;
  /** Name of the web token cookie accepted on the handshake (e.g. `'SUAT'`); default: none. */
  cookie?: string | undefined;
  /** Answer the `ping` event (acknowledgement `{ member_no }`). Default `true`. */
  ping?: boolean | undefined;
  /**
   * Bytes the server may hold queued for one connection (packets not yet
   * handed to the transport plus what the peer has not read); past it the
   * connection is closed. Default 1 MiB.
   */
  maxQueuedBytes?: number | undefined;
  /** Called for each authenticated socket, after `session` was emitted. */
  onConnection?: ((socket: GameSocket, connection: LiveConnection) => void) | undefined;
}

/** The `Error` a refused handshake passes to `next`: the client's `connect_error`. */
export interface ConnectError extends Error {
  /** The problem body: `status`, `action`, `code`, `title`, `detail`. */
  data: ProblemBody;
}

/** The `connect_error` for a failure: the action as message, the problem body as `data`. */
export function connectError(err: unknown, realm?: string): ConnectError {
  const { body } = problemResponse(err, { realm });
  return Object.assign(new Error(body.action), { data: body });
}

// One function for every socket: the registry hands the socket back.
function closeSocket(ending: ConnectionEnding, socket: Socket): void {
  if (ending.kind === 'expired') socket.emit('auth:expired', { action: ending.action, ...(ending.code === undefined ? {} : { code: ending.code }) });
  else socket.emit('session:ended', { reason: ending.reason });
  socket.disconnect(true);
}

type Ack = (answer: unknown) => void;

// An event's acknowledgement is its last argument when that is a function; whatever precedes it is the payload.
function ackOf(args: unknown[]): Ack | undefined {
  const last = args[args.length - 1];
  return typeof last === 'function' ? (last as Ack) : undefined;
}

function tokenOf(payload: unknown): unknown {
  return payload !== null && typeof payload === 'object' ? (payload as { token?: unknown }).token : undefined;
}

/** What ends a handshake's client: its engine.io connection closes. */
const CLOSE = ['close'] as const;

// Nobody reads the refusal of a client that went away: one shared error, no stack per caller.
const CLIENT_GONE = new Error('the client went away');

// A namespace is guarded once, by the first call that reaches it: two guards would verify
// each handshake twice and register each socket twice.
const guarded = new WeakSet<Namespace>();


function isServer(io: unknown): io is Server {
  return io !== null && typeof io === 'object' && (io as { _nsps?: unknown })._nsps instanceof Map && typeof (io as { of?: unknown }).of === 'function';
}

/**
 * Authenticates Socket.IO connections with namespace middleware: the token
 * comes from `handshake.auth.token`, `Authorization: Bearer` on the handshake
 * request, or the web token cookie; never the URL. A refusal reaches the
 * client as `connect_error` with the action as `message` and the problem body
 * as `data`. Once connected the socket receives `session` `{ member_no, guid }`,
 * may send `auth:refresh` `{ token }` with an acknowledgement, answers `ping`,
 * and is re-verified by the registry (`auth:expired`, `session:ended`).
 *
 * Given the server, every namespace is guarded: those that exist and those
 * created later (`io.of('/match')`, children of dynamic namespaces). Given
 * one namespace, only that one. A namespace already guarded by an earlier
 * call keeps that guard. Per engine.io connection, one socket per
 * namespace (a repeated `CONNECT` is refused with `connect_error` `login`,
 * 400, without a platform call) and at most `maxQueuedBytes` waiting to be
 * sent. A handshake whose client goes away before the answer cancels its
 * platform call; one still in progress when shutdown begins gets
 * `connect_error` `retry_later` (503) at once.
 *
 * Returns its argument, typed so that `socket.data.user` is the player.
 *
 * @example
 * ```ts
 * const io = useSocketIoAuth(new Server(httpServer, { destroyUpgrade: false }), { authenticate, registry, cookie: 'SUAT' });
 * io.on('connection', (socket) => socket.emit('hello', socket.data.user.memberNo));
 * ```
 */
export function useSocketIoAuth<L extends EventsMap = DefaultEventsMap, E extends EventsMap = L, S extends EventsMap = DefaultEventsMap>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Socket.IO types its event maps and socket data with any
  io: Server<L, E, S, any>,
  options: SocketIoAuthOptions,
): Server<L, E, S, GameSocketData>;
export function useSocketIoAuth<L extends EventsMap = DefaultEventsMap, E extends EventsMap = L, S extends EventsMap = DefaultEventsMap>(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- Socket.IO types its event maps and socket data with any
  io: Namespace<L, E, S, any>,
  options: SocketIoAuthOptions,
): Namespace<L, E, S, GameSocketData>;
export function useSocketIoAuth(io: Server | Namespace, options: SocketIoAuthOptions): Server | Namespace {
  if (options === null || typeof options !== 'object') throw new TypeError('useSocketIoAuth: options must be an object');
  const { authenticate, registry, cookie, onConnection } = options;
  if (typeof authenticate?.token !== 'function') throw new TypeError('useSocketIoAuth: authenticate must come from createAuthenticator');
  if (registry === undefined) throw new TypeError('useSocketIoAuth: registry is required');
  const ping = options.ping ?? true;
  const maxQueuedBytes = integerOption(options.maxQueuedBytes, 'useSocketIoAuth', 'maxQueuedBytes', 'bytes', 1024, DEFAULT_MAX_QUEUED_BYTES);
  const { realm } = authenticate;
  // One refusal for every repeated CONNECT: a flood of them builds no error per packet.
  const duplicate = connectError(invalidRequest('one session per namespace per connection'), realm);

  // Per socket we keep only the registry's entry: the listeners below are shared
  // by every socket (Socket.IO calls them with the socket as `this`).
  const pending = new WeakMap<Socket, HandshakeToken>();
  const live = new WeakMap<Socket, LiveConnection>();
  const namespaces = new NamespaceSessions();

  function onDisconnect(this: Socket): void {
    namespaces.release(this);
    const connection = live.get(this);
    if (connection === undefined) return;
    live.delete(this);
    registry.remove(connection, droppedForBound(this.conn) ? 'bound' : 'closed');
  }

  function onRefresh(this: Socket, ...args: unknown[]): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    const ack = ackOf(args);
    // With no payload the acknowledgement is the only argument: the token is missing (400 login).
    const payload = args.length > 0 && args[0] !== ack ? args[0] : undefined;
    void registry.refresh(connection, tokenOf(payload)).then((result) => {
      (this.data as Partial<GameSocketData>).user = connection.user;
      if (ack === undefined) return;
      if (result.ok) ack({ ok: true, member_no: result.user.memberNo });
      else ack({ ok: false, problem: problemResponse(result.error).body });
    });
  }

  function onPing(this: Socket, ...args: unknown[]): void {
    const connection = live.get(this);
    const ack = ackOf(args);
    // A connection already closed for its backlog answers nothing more.
    if (connection !== undefined && ack !== undefined && this.conn.readyState === 'open') ack({ member_no: connection.memberNo });
  }

  // Handshakes still being authenticated: shutdown refuses them at once.
  const handshakes = new PendingHandshakes<Socket>();
  registry.onShutdown(() => handshakes.endAll());

  function middleware(socket: Socket, next: (err?: Error) => void): void {
    const conn = socket.conn;
    boundOutput(conn, maxQueuedBytes);
    if (registry.closing) return next(connectError(shuttingDown(), realm));
    // Gone before its turn: nobody would read the answer.
    if (conn.readyState !== 'open') return next(CLIENT_GONE);
    if (!namespaces.claim(socket)) return next(duplicate);
    const refuse = (err: unknown): void => {
      namespaces.release(socket);
      next(connectError(err, realm));
    };
    const view = handshakeView(socket.request);
    let found: HandshakeToken;
    try {
      const auth = socket.handshake.auth as { token?: unknown } | undefined;
      found = handshakeToken(view, cookie, auth?.token, registry.now());
    } catch (err) {
      return refuse(err);
    }
    admitHandshake({
      verify: (signal) => authenticate.token(found.token, { req: view as never, source: found.source, signal }),
      pending: handshakes,
      key: socket,
      client: conn,
      leaveOn: CLOSE,
      // The client's connection closed before the answer: its platform call was cancelled and its slot freed.
      onLeave: () => {
        namespaces.release(socket);
        next(CLIENT_GONE);
      },
      onShutdown: () => refuse(shuttingDown()),
    }).then(
      (user) => {
        if (user === OVERTAKEN) return;
        pending.set(socket, found);
        socket.data.user = user;
        next();
      },
      refuse,
    );
  }

  function onSocket(socket: Socket): void {
    socket.on('disconnect', onDisconnect);
    const data = socket.data as Partial<GameSocketData>;
    const found = pending.get(socket);
    pending.delete(socket);
    const user = data.user;
    if (found === undefined || user === undefined) return void socket.disconnect(true);
    let connection: LiveConnection;
    try {
      connection = registry.add({ transport: 'socket.io', user, token: found.token, source: found.source, since: found.since, close: closeSocket, peer: socket });
    } catch {
      socket.emit('session:ended', { reason: 'shutdown' });
      return void socket.disconnect(true);
    }
    // Its session ended while it was being verified: the registry already said session:ended and disconnected it.
    if (!connection.open) return;
    data.connection = connection;
    live.set(socket, connection);
    socket.on('auth:refresh', onRefresh);
    if (ping) socket.on('ping', onPing);
    socket.emit('session', { member_no: user.memberNo, guid: user.guid });
    onConnection?.(socket as GameSocket, connection);
  }

  function guard(nsp: Namespace): void {
    if (guarded.has(nsp)) return;
    guarded.add(nsp);
    nsp.use(middleware);
    nsp.on('connection', onSocket);
  }

  if (isServer(io)) {
    // Bounded from the engine.io handshake on, before any namespace middleware runs
    // (a server not attached yet is bounded by the middleware instead).
    (io.engine as Server['engine'] | undefined)?.on('connection', (conn: Socket['conn']) => boundOutput(conn, maxQueuedBytes));
    for (const nsp of io._nsps.values()) guard(nsp);
    // Namespaces made later, by name or as children of a dynamic one, are guarded as they appear.
    io.sockets.on('new_namespace', guard);
  } else {
    guard(io);
  }
  return io;
}
