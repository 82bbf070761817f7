import { CALLER_GONE } from '../http/aborted.js';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { Authenticator } from '../auth/authenticate.js';
import { PlatformError, missingCredentials } from '../errors/index.js';
import { problemResponse, type ProblemResponse } from '../middleware/problem-response.js';
import { closeCodeFor, closeFrameFor } from '../realtime/close-codes.js';
import { handshakeToken, handshakeView, type HandshakeToken } from '../realtime/handshake.js';
import type { LiveConnection, SessionRegistry } from '../realtime/session-registry.js';
import type { ConnectionEnding } from '../realtime/types.js';
import type { GameUser } from '../types.js';

/** How long a first-message client has to send `{"type":"auth","token"}`. */
export const FIRST_MESSAGE_TIMEOUT_MS = 10_000;
// A peer that never answers our close frame is cut off after this.
const CLOSE_GRACE_MS = 5_000;

/** Options of {@link attachWebSocket}. */
export interface WebSocketAuthOptions {
  /** The core authenticator (`createAuthenticator(client, ...)`). */
  authenticate: Authenticator<object, never>;
  /** The live-session registry shared with the other transports. */
  registry: SessionRegistry;
  /** Upgrade path served; default `'/ws'`. Other paths are left to other listeners. */
  path?: string | undefined;
  /** Name of the web token cookie accepted on the upgrade (e.g. `'SUAT'`); default: none. */
  cookie?: string | undefined;
  /** Accept clients that send their token as the first message. Default `true`. */
  firstMessage?: boolean | undefined;
  /** Time allowed for that first message, in ms. Default 10000. */
  firstMessageTimeoutMs?: number | undefined;
  /** Largest message accepted, in bytes. Default 64 KiB. */
  maxPayload?: number | undefined;
  /** Called for each authenticated connection (add your own message handlers here). */
  onConnection?: ((ws: WebSocket, connection: LiveConnection, req: IncomingMessage) => void) | undefined;
}

/** What {@link attachWebSocket} returns. */
export interface AttachedWebSocket {
  readonly wss: WebSocketServer;
  /** Stops serving upgrades (live connections are ended by `registry.closeAll`). */
  detach(): void;
}

function send(ws: WebSocket, message: object): void {
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(message));
}

function closeWith(ws: WebSocket, code: number, reason: string): void {
  ws.close(code, reason);
  setTimeout(() => ws.terminate(), CLOSE_GRACE_MS).unref();
}

/** Answers a refused upgrade with our status, headers and problem body, then closes the socket. */
function refuse(socket: Duplex, response: ProblemResponse): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(response.body);
  const headers = { ...response.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${head}\r\n${body}`);
}

function ignore(): void {}

// A bad frame closes the socket (ws does that itself); the error event must not crash the process.
function ignoreErrors(ws: WebSocket): WebSocket {
  ws.on('error', ignore);
  return ws;
}

function destroySelf(this: Duplex): void {
  this.destroy();
}

function parse(data: RawData): { type?: unknown; token?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(data.toString());
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

// One function for every socket: the registry hands the socket back.
function closeSocket(ending: ConnectionEnding, ws: WebSocket): void {
  if (ending.kind === 'expired') send(ws, { type: 'auth:expired', action: ending.action, ...(ending.code === undefined ? {} : { code: ending.code }) });
  else send(ws, { type: 'session:ended', reason: ending.reason });
  const { code, reason } = closeFrameFor(ending);
  closeWith(ws, code, reason);
}

/**
 * Authenticates WebSocket connections on `server` at `path`: the upgrade
 * request is checked **before** `handleUpgrade` (the `ws` maintainers'
 * recommended shape), from `Authorization: Bearer` or the web token cookie,
 * never the URL; a refusal is an HTTP answer with our status, problem body
 * and `WWW-Authenticate`/`Retry-After`. A client with neither header nor
 * cookie may send `{"type":"auth","token"}` as its first message.
 *
 * Once authenticated, the client receives `{"type":"session","member_no","guid"}`,
 * may refresh in band (`{"type":"auth:refresh","token"}` answered
 * `{"type":"auth:refreshed","member_no"}`), answers `{"type":"ping"}` with
 * `{"type":"pong","member_no"}`, and is re-verified by the registry.
 *
 * @example
 * ```ts
 * attachWebSocket(server, { authenticate, registry, path: '/ws', cookie: 'SUAT' });
 * ```
 */
export function attachWebSocket(server: Server, options: WebSocketAuthOptions): AttachedWebSocket {
  if (options === null || typeof options !== 'object') throw new TypeError('attachWebSocket: options must be an object');
  const { authenticate, registry, cookie, onConnection } = options;
  if (typeof authenticate?.token !== 'function') throw new TypeError('attachWebSocket: authenticate must come from createAuthenticator');
  if (registry === undefined) throw new TypeError('attachWebSocket: registry is required');
  const path = options.path ?? '/ws';
  const firstMessage = options.firstMessage ?? true;
  const firstMessageTimeoutMs = options.firstMessageTimeoutMs ?? FIRST_MESSAGE_TIMEOUT_MS;
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 65_536 });

  // Per socket we keep only the registry's entry: the listeners below are shared
  // by every socket (`ws` calls them with the socket as `this`).
  const live = new WeakMap<WebSocket, LiveConnection>();

  function onClose(this: WebSocket): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    live.delete(this);
    registry.remove(connection);
  }

  function onMessage(this: WebSocket, data: RawData): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    const message = parse(data);
    if (message?.type === 'ping') send(this, { type: 'pong', member_no: connection.memberNo });
    else if (message?.type === 'auth:refresh') {
      void registry.refresh(connection, message.token).then((result) => {
        if (result.ok) send(this, { type: 'auth:refreshed', member_no: result.user.memberNo });
        else if (!result.ended) send(this, { type: 'auth:refresh-failed', problem: problemResponse(result.error).body });
      });
    }
  }

  function established(ws: WebSocket, req: IncomingMessage, user: GameUser, found: HandshakeToken): void {
    let connection: LiveConnection;
    try {
      connection = registry.add({ transport: 'ws', user, token: found.token, source: found.source, close: closeSocket, peer: ws });
    } catch (err) {
      const { body } = problemResponse(err);
      return closeWith(ws, 1001, body.action);
    }
    live.set(ws, connection);
    ws.on('close', onClose);
    ws.on('message', onMessage);
    send(ws, { type: 'session', member_no: user.memberNo, guid: user.guid });
    onConnection?.(ws, connection, req);
  }

  // First-message mode: the socket is open, nothing is served until a valid auth message.
  function awaitFirstMessage(ws: WebSocket, req: IncomingMessage): void {
    const aborter = new AbortController();
    const fail = (error: PlatformError): void => {
      const { body } = problemResponse(error);
      send(ws, { type: 'auth:failed', problem: body });
      closeWith(ws, closeCodeFor(body.action), body.action);
    };
    const timer = setTimeout(() => fail(missingCredentials()), firstMessageTimeoutMs);
    timer.unref();
    const onEarlyClose = (): void => {
      clearTimeout(timer);
      aborter.abort(CALLER_GONE);
    };
    ws.once('close', onEarlyClose);
    ws.once('message', (data) => {
      clearTimeout(timer);
      const message = parse(data);
      if (message?.type !== 'auth' || typeof message.token !== 'string') return fail(missingCredentials());
      const found: HandshakeToken = { token: message.token, source: 'header' };
      authenticate.token(found.token, { signal: aborter.signal }).then(
        (user) => {
          // Nothing of the wait (request, timer, aborter) stays on the live socket.
          ws.off('close', onEarlyClose);
          if (ws.readyState === ws.OPEN) established(ws, req, user, found);
        },
        (err: unknown) => fail(err instanceof PlatformError ? err : missingCredentials()),
      );
    });
  }

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const pathname = (req.url ?? '/').split('?', 1)[0];
    if (pathname !== path) return;
    socket.on('error', destroySelf);
    const view = handshakeView(req);
    let found: HandshakeToken;
    try {
      found = handshakeToken(view, cookie);
    } catch (err) {
      if (firstMessage && err instanceof PlatformError && err.kind === 'missing_credentials') {
        wss.handleUpgrade(req, socket, head, (ws) => awaitFirstMessage(ignoreErrors(ws), req));
        return;
      }
      return refuse(socket, problemResponse(err, { realm: authenticate.realm }));
    }
    const aborter = new AbortController();
    const onClose = (): void => aborter.abort(CALLER_GONE);
    socket.once('close', onClose);
    authenticate.token(found.token, { req: view as never, source: found.source, signal: aborter.signal }).then(
      (user) => {
        socket.off('close', onClose);
        if (!socket.writable) return void socket.destroy();
        wss.handleUpgrade(req, socket, head, (ws) => established(ignoreErrors(ws), req, user, found));
      },
      (err: unknown) => {
        socket.off('close', onClose);
        refuse(socket, problemResponse(err, { realm: authenticate.realm }));
      },
    );
  };
  server.on('upgrade', onUpgrade);
  return {
    wss,
    detach(): void {
      server.off('upgrade', onUpgrade);
    },
  };
}
