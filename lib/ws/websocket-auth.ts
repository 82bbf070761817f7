import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket, type RawData } from 'ws';
import type { Authenticator } from '../auth/index.js';
import { integerOption } from '../config/index.js';
import { PlatformError, shuttingDown } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import { checkByteBound, DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_PRE_AUTH_BYTES, type LiveConnection, type SessionRegistry } from '../realtime/index.js';
import { admitHandshake, handshakeToken, handshakeView, OVERTAKEN, PendingHandshakes, type HandshakeToken } from '../adapters/index.js';
import type { GameUser } from '../types.js';
import { awaitFirstMessage } from './first-message.js';
import { DEFAULT_HEARTBEAT_INTERVAL_MS, startHeartbeat } from './heartbeat.js';
import { brokeBound, closeOverflowing, closeSocket, parse, refuse, send, SHUTDOWN } from './ws-io.js';

export { MAX_QUEUED_MESSAGES } from './first-message.js';

/** How long a first-message client has to send `{"type":"auth","token"}`. */
export const FIRST_MESSAGE_TIMEOUT_MS = 10_000;

/** Options of {@link attachWebSocket}. */
export interface WebSocketAuthOptions {
  /** The core authenticator (`createAuthenticator(client, ...)`). */
  authenticate: Authenticator<object, never>;
  /** The live-session registry shared with the other transports. */
  registry: SessionRegistry;
  /** Upgrade path served; default `'/ws'`. Other paths are left to other listeners (end with `refuseUnservedUpgrades`). */
  path?: string | undefined;
  /** Name of the web token cookie accepted on the upgrade (e.g. `'SUAT'`); default: none. */
  cookie?: string | undefined;
  /** Accept clients that send their token as the first message. Default `true`. */
  firstMessage?: boolean | undefined;
  /** Time allowed for that first message, in ms. Default 10000. */
  firstMessageTimeoutMs?: number | undefined;
  /** Largest message accepted, in bytes. Default 64 KiB. */
  maxPayload?: number | undefined;
  /**
   * Most bytes queued for one client and not yet taken by it. A client that
   * stops reading while it keeps sending is closed (1008 `send_buffer_full`)
   * once what we queued for it would pass this, instead of being buffered
   * for. Default 1 MiB.
   */
  maxBufferedBytes?: number | undefined;
  /**
   * Most bytes of messages kept for a first-message client while its token
   * is being verified (at most {@link MAX_QUEUED_MESSAGES} messages too);
   * more closes the socket (1008 `too_many_bytes`). Default 64 KiB.
   */
  maxPreAuthBytes?: number | undefined;
  /**
   * Every connection is pinged this often, in ms; one that answered none of
   * our pings by the next one is terminated. Default 30000; `0` turns the
   * heartbeat off.
   */
  heartbeatIntervalMs?: number | undefined;
  /** Called for each authenticated connection (add your own message handlers here). */
  onConnection?: ((ws: WebSocket, connection: LiveConnection, req: IncomingMessage) => void) | undefined;
}

/** What {@link attachWebSocket} returns. */
export interface AttachedWebSocket {
  readonly wss: WebSocketServer;
  /** Upgrades still being authenticated (first-message wait included). */
  readonly pending: number;
  /** Stops serving upgrades (live connections are ended by `registry.closeAll`). */
  detach(): void;
  /**
   * Stops serving upgrades and ends those still being authenticated as
   * shutdown does (`registry.closeAll('shutdown')` does it too); live
   * connections are ended by `registry.closeAll`.
   */
  close(): void;
}

function ignore(): void {}

/** What ends an upgrade's client: an upgrade socket stays half open after the client's FIN (no 'close' ever comes), so 'end' counts. */
const UPGRADE_GONE = ['end', 'close', 'error'] as const;

function destroySelf(this: Duplex): void {
  this.destroy();
}

/**
 * Authenticates WebSocket connections on `server` at `path`: the upgrade
 * request is checked **before** `handleUpgrade` (the `ws` maintainers'
 * recommended shape), from `Authorization: Bearer` or the web token cookie,
 * never the URL; a refusal is an HTTP answer with our status, problem body
 * and `WWW-Authenticate`/`Retry-After`. A client with neither header nor
 * cookie may send `{"type":"auth","token"}` as its first message; what it
 * sends while that token is being verified is handled once the session is
 * established. Shutdown ends upgrades still being authenticated at once.
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
  const maxBufferedBytes = checkByteBound(options.maxBufferedBytes, 'attachWebSocket', 'maxBufferedBytes', DEFAULT_MAX_BUFFERED_BYTES);
  const maxPreAuthBytes = checkByteBound(options.maxPreAuthBytes, 'attachWebSocket', 'maxPreAuthBytes', DEFAULT_MAX_PRE_AUTH_BYTES);
  const heartbeatIntervalMs = integerOption(options.heartbeatIntervalMs, 'attachWebSocket', 'heartbeatIntervalMs', 'ms', 0, DEFAULT_HEARTBEAT_INTERVAL_MS);
  const wss = new WebSocketServer({ noServer: true, maxPayload: options.maxPayload ?? 65_536 });
  const heartbeat = startHeartbeat(wss, heartbeatIntervalMs);

  // Every socket we create: a bad frame closes it (ws does that itself) and its
  // error event must not crash the process; the heartbeat watches it from the start.
  const adopt = (ws: WebSocket): WebSocket => {
    ws.on('error', ignore);
    heartbeat.watch(ws);
    return ws;
  };

  // Per socket we keep only the registry's entry: the listeners below are shared
  // by every socket (`ws` calls them with the socket as `this`).
  const live = new WeakMap<WebSocket, LiveConnection>();

  function onClose(this: WebSocket): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    live.delete(this);
    registry.remove(connection, brokeBound(this) ? 'bound' : 'closed');
  }

  function onMessage(this: WebSocket, data: RawData): void {
    const connection = live.get(this);
    if (connection === undefined) return;
    // A peer that keeps sending while it does not read what we already queued
    // (answers of ours or of the app's handlers) is closed, not buffered for.
    if (this.bufferedAmount > maxBufferedBytes) return closeOverflowing(this);
    const message = parse(data);
    if (message?.type === 'ping') send(this, { type: 'pong', member_no: connection.memberNo }, maxBufferedBytes);
    else if (message?.type === 'auth:refresh') {
      void registry.refresh(connection, message.token).then((result) => {
        if (result.ok) send(this, { type: 'auth:refreshed', member_no: result.user.memberNo }, maxBufferedBytes);
        else if (!result.ended) send(this, { type: 'auth:refresh-failed', problem: problemResponse(result.error).body }, maxBufferedBytes);
      });
    }
  }

  function established(ws: WebSocket, req: IncomingMessage, user: GameUser, found: HandshakeToken): boolean {
    let connection: LiveConnection;
    try {
      connection = registry.add({ transport: 'ws', user, token: found.token, source: found.source, since: found.since, close: closeSocket, peer: ws });
    } catch {
      // The registry refuses new connections only once shutdown began.
      closeSocket(SHUTDOWN, ws);
      return false;
    }
    // Its session ended while it was being verified: the registry already said session:ended and closed it.
    if (!connection.open) return false;
    live.set(ws, connection);
    ws.on('close', onClose);
    ws.on('message', onMessage);
    send(ws, { type: 'session', member_no: user.memberNo, guid: user.guid }, maxBufferedBytes);
    onConnection?.(ws, connection, req);
    return true;
  }

  // Upgrades still being authenticated: shutdown ends them at once.
  const pending = new PendingHandshakes();
  const stopListening = registry.onShutdown(() => {
    heartbeat.stop();
    pending.endAll();
  });
  const firstMessageContext = { authenticate, pending, timeoutMs: firstMessageTimeoutMs, maxBytes: maxPreAuthBytes, established, now: () => registry.now() };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    const pathname = (req.url ?? '/').split('?', 1)[0];
    if (pathname !== path) return;
    socket.on('error', destroySelf);
    if (registry.closing) return refuse(socket, problemResponse(shuttingDown()));
    const view = handshakeView(req);
    let found: HandshakeToken;
    try {
      found = handshakeToken(view, cookie, undefined, registry.now());
    } catch (err) {
      if (firstMessage && err instanceof PlatformError && err.kind === 'missing_credentials') {
        wss.handleUpgrade(req, socket, head, (ws) => awaitFirstMessage(adopt(ws), req, firstMessageContext));
        return;
      }
      return refuse(socket, problemResponse(err, { realm: authenticate.realm }));
    }
    admitHandshake({
      verify: (signal) => authenticate.token(found.token, { req: view as never, source: found.source, signal }),
      pending,
      key: socket,
      client: socket,
      leaveOn: UPGRADE_GONE,
      // Gone before our answer: its platform call was aborted (its slot freed), the socket goes too.
      onLeave: () => socket.destroy(),
      onShutdown: () => refuse(socket, problemResponse(shuttingDown())),
    }).then(
      (user) => {
        if (user === OVERTAKEN) return;
        if (!socket.writable) return void socket.destroy();
        wss.handleUpgrade(req, socket, head, (ws) => void established(adopt(ws), req, user, found));
      },
      (err: unknown) => refuse(socket, problemResponse(err, { realm: authenticate.realm })),
    );
  };
  server.on('upgrade', onUpgrade);
  const detach = (): void => void server.off('upgrade', onUpgrade);
  return {
    wss,
    get pending(): number {
      return pending.size;
    },
    detach,
    close(): void {
      detach();
      stopListening();
      heartbeat.stop();
      pending.endAll();
    },
  };
}
