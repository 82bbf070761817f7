import type { Namespace, Server, Socket } from 'socket.io';
import type { Authenticator } from '../auth/authenticate.js';
import { CALLER_GONE } from '../http/aborted.js';
import { problemResponse } from '../adapters/problem-response.js';
import type { ProblemBody } from '../adapters/problem.js';
import { handshakeToken, handshakeView, type HandshakeToken } from '../realtime/handshake.js';
import { PendingHandshakes, shuttingDown } from '../realtime/pending-handshakes.js';
import type { LiveConnection, SessionRegistry } from '../realtime/session-registry.js';
import type { ConnectionEnding } from '../realtime/types.js';
import type { GameUser } from '../types.js';

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
  /** Called for each authenticated socket, after `session` was emitted. */
  onConnection?: ((socket: Socket, connection: LiveConnection) => void) | undefined;
}

/** The `Error` a refused handshake passes to `next`: the client's `connect_error`. */
export interface ConnectError extends Error {
  /** The problem body: `status`, `action`, `code`, `title`, `detail`. */
  data: ProblemBody;
}

/** What the adapter keeps on `socket.data`. */
export interface GameSocketData {
  user: GameUser;
  connection: LiveConnection;
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

/**
 * Authenticates Socket.IO connections with `io.use` middleware: the token
 * comes from `handshake.auth.token`, `Authorization: Bearer` on the handshake
 * request, or the web token cookie; never the URL. A refusal reaches the
 * client as `connect_error` with the action as `message` and the problem body
 * as `data`. Once connected the socket receives `session` `{ member_no, guid }`,
 * may send `auth:refresh` `{ token }` with an acknowledgement, answers `ping`,
 * and is re-verified by the registry (`auth:expired`, `session:ended`).
 * A handshake still being authenticated when shutdown begins gets
 * `connect_error` `retry_later` (503) at once.
 *
 * @example
 * ```ts
 * const io = new Server(httpServer, { destroyUpgrade: false });
 * useSocketIoAuth(io, { authenticate, registry, cookie: 'SUAT' });
 * io.on('connection', (socket) => socket.emit('hello', socket.data.user.memberNo));
 * ```
 */
export function useSocketIoAuth(io: Server | Namespace, options: SocketIoAuthOptions): void {
  if (options === null || typeof options !== 'object') throw new TypeError('useSocketIoAuth: options must be an object');
  const { authenticate, registry, cookie, onConnection } = options;
  if (typeof authenticate?.token !== 'function') throw new TypeError('useSocketIoAuth: authenticate must come from createAuthenticator');
  if (registry === undefined) throw new TypeError('useSocketIoAuth: registry is required');
  const ping = options.ping ?? true;

  // Per socket we keep only the registry's entry: the listeners below are shared
  // by every socket (Socket.IO calls them with the socket as `this`).
  const pending = new WeakMap<Socket, HandshakeToken>();
  const live = new WeakMap<Socket, LiveConnection>();

  function onDisconnect(this: Socket): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    live.delete(this);
    registry.remove(connection);
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
    if (connection !== undefined && ack !== undefined) ack({ member_no: connection.memberNo });
  }

  // Handshakes still being authenticated: shutdown refuses them at once.
  const handshakes = new PendingHandshakes<Socket>();
  registry.onShutdown(() => handshakes.endAll());

  io.use((socket, next) => {
    if (registry.closing) return next(connectError(shuttingDown(), authenticate.realm));
    const view = handshakeView(socket.request);
    let found: HandshakeToken;
    try {
      const auth = socket.handshake.auth as { token?: unknown } | undefined;
      found = { ...handshakeToken(view, cookie, auth?.token), since: registry.now() };
    } catch (err) {
      return next(connectError(err, authenticate.realm));
    }
    const aborter = new AbortController();
    handshakes.add(socket, () => {
      aborter.abort(CALLER_GONE);
      next(connectError(shuttingDown(), authenticate.realm));
    });
    authenticate.token(found.token, { req: view as never, source: found.source, signal: aborter.signal }).then(
      (user) => {
        if (!handshakes.settle(socket)) return;
        pending.set(socket, found);
        socket.data.user = user;
        next();
      },
      (err: unknown) => {
        if (handshakes.settle(socket)) next(connectError(err, authenticate.realm));
      },
    );
  });

  io.on('connection', (socket: Socket) => {
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
    socket.on('disconnect', onDisconnect);
    socket.on('auth:refresh', onRefresh);
    if (ping) socket.on('ping', onPing);
    socket.emit('session', { member_no: user.memberNo, guid: user.guid });
    onConnection?.(socket, connection);
  });
}
