import type { IncomingHttpHeaders } from 'node:http';
import type { Client, Room } from '@colyseus/core';
import type { Authenticator } from '../auth/index.js';
import { invalidRequest, PlatformError, shuttingDown } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import { closeFrameFor, type ConnectionEnding, type LiveConnection, type SessionRegistry } from '../realtime/index.js';
import { handshakeToken, type HandshakeToken } from '../adapters/index.js';
import type { GameUser } from '../types.js';
import { closerFor, endedError, endingFor, isOpen, SessionEndedMeanwhile } from './room-closer.js';
import { currentTransport, headerRecord, loadTransportAccessor, urlTokenSeen, watchTransport, type WatchableTransport } from './url-token.js';

/**
 * What Colyseus hands `onAuth` (its `AuthContext`): `headers` is a record on
 * Colyseus 0.16 and a Fetch `Headers` on 0.18; both are read the same way.
 */
export interface RoomAuthContext {
  token?: string | undefined;
  headers: IncomingHttpHeaders | Headers;
}

/** Options of {@link gamePlatformRoomAuth}. */
export interface RoomAuthOptions {
  /** The core authenticator (`createAuthenticator(client, ...)`). */
  authenticate: Authenticator<object, never>;
  /** The live-session registry shared with the other transports. */
  registry: SessionRegistry;
  /**
   * The server's transport (`new WebSocketTransport(...)`). Found by itself
   * on Colyseus 0.18; on 0.16 pass it to accept a token in an
   * `Authorization` header on the room's WebSocket: without it only the
   * join options' `token` is accepted there, because Colyseus 0.16 merges a
   * URL token and the header into one value the helper cannot tell apart.
   */
  transport?: WatchableTransport | undefined;
}

/** What {@link gamePlatformRoomAuth} returns: the pieces a room plugs in. */
export interface RoomAuth {
  /**
   * The room's `onAuth(client, options, context)`: resolves to the player
   * (`client.auth`), or throws an error whose `code` is the WebSocket close
   * code of the action (4401, 4403, 1013, 1011) and whose `message` is the
   * action; `data` is the problem body.
   */
  onAuth(client: Client, options: unknown, context: RoomAuthContext): Promise<GameUser>;
  /** Adds the `auth:refresh` and `ping` message handlers to a room (call it in `onCreate`). */
  register(room: Room): void;
  /**
   * Registers a client that came back through `allowReconnection` (its
   * previous connection left the registry when it dropped): verifies the
   * token it joined (or last refreshed) with again, then registers it as
   * `onAuth` does. Call it with the new client that `await
   * this.allowReconnection(client, seconds)` resolves to. Resolves to `true`
   * once registered; to `false` when it may not stay: it was then told why
   * (`auth:expired` / `session:ended`) and closed with the matching code.
   */
  reconnected(client: Client): Promise<boolean>;
  /** The registry entry of a joined client. */
  connectionOf(client: Client): LiveConnection | undefined;
}

/** The error `onAuth` throws: Colyseus passes `code` and `message` to the client's join promise. */
export class RoomAuthError extends Error {
  readonly code: number;
  readonly data: ReturnType<typeof problemResponse>['body'];
  constructor(err: unknown, realm: string) {
    const { body } = problemResponse(err, { realm });
    super(body.action);
    this.name = 'RoomAuthError';
    this.code = closeFrameFor({ kind: 'expired', action: body.action, problem: body }).code;
    this.data = body;
  }
}

function bearerOf(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  const match = typeof value === 'string' ? /^bearer +(\S+)\s*$/i.exec(value) : null;
  return match?.[1];
}

/**
 * Authentication for Colyseus rooms (`@colyseus/core` 0.16 and 0.18), with
 * the re-verification, in-band refresh and session ending of the other
 * transports. The token comes from the join options (`{ token }`, sent in the
 * matchmaking request's body) or an `Authorization: Bearer` header on the
 * room's WebSocket (native clients; on 0.16 only with `transport` given). A
 * token in the URL (the SDK's `client.auth.token` adds `_authToken=` to it)
 * is refused with 4401 `login`, even when a header carries the same token.
 * After a join (and a reconnection) the room sends the client `session`
 * `{ member_no, guid }`.
 *
 * @example
 * ```ts
 * const auth = gamePlatformRoomAuth({ authenticate, registry });
 * class Lobby extends Room {
 *   onCreate() { auth.register(this); }
 *   onAuth(client: Client, options: unknown, context: AuthContext) { return auth.onAuth(client, options, context); }
 * }
 * ```
 */
export function gamePlatformRoomAuth(options: RoomAuthOptions): RoomAuth {
  if (options === null || typeof options !== 'object') throw new TypeError('gamePlatformRoomAuth: options must be an object');
  const { authenticate, registry } = options;
  if (options.transport !== undefined) watchTransport(options.transport);
  void loadTransportAccessor();
  if (typeof authenticate?.token !== 'function') throw new TypeError('gamePlatformRoomAuth: authenticate must come from createAuthenticator');
  if (registry === undefined) throw new TypeError('gamePlatformRoomAuth: registry is required');
  const connections = new WeakMap<Client, LiveConnection>();
  // The token behind each `client.auth` (Colyseus hands the same object to a
  // reconnected client), with `since` = when its connection dropped. Released
  // with that object; deleted when the registry ends the connection, so a
  // client the server ended cannot come back through reconnection.
  const tokens = new WeakMap<GameUser, HandshakeToken>();

  // Verifies a token and registers the client; throws when it must not stay.
  async function admit(client: Client, found: HandshakeToken): Promise<GameUser> {
    // A reconnection also catches the member ends made while it was away (see RecentEnds: 60 s).
    const since = Math.min(found.since ?? Infinity, registry.now());
    const user = await authenticate.token(found.token, { source: found.source });
    // Gone while we were verifying: its close event has passed, nothing would remove an entry.
    if (!isOpen(client)) throw new PlatformError({ kind: 'missing_credentials', message: 'The client left while its token was being verified.' });
    const ended = registry.endedSince(found.token, user.memberNo, since);
    if (ended !== undefined) throw new SessionEndedMeanwhile(ended);
    const closer = closerFor(client);
    const close = (ending: ConnectionEnding): void => {
      tokens.delete(client.auth as GameUser);
      closer(ending);
    };
    const connection = registry.add({ transport: 'colyseus', user, token: found.token, source: found.source, close });
    connections.set(client, connection);
    tokens.set(connection.user, { token: found.token, source: found.source });
    // Queued by Colyseus until the client has the join confirmation, like the other transports' `session`.
    client.send('session', { member_no: connection.user.memberNo, guid: connection.user.guid });
    client.ref.once('close', () => {
      const entry = tokens.get(client.auth as GameUser);
      if (entry !== undefined) entry.since = registry.now();
      registry.remove(connection);
    });
    return connection.user;
  }

  // Colyseus fills context.token from the URL's _authToken, else from the
  // Authorization header. A value that differs from the header came from the
  // URL; an equal one did too when the watched transport saw `_authToken`, and
  // is not trusted when no watched transport saw the socket at all.
  function carriedUrlToken(client: Client, merged: string | null | undefined, header: string | undefined): boolean {
    if (merged === undefined || merged === null || merged === '') return false;
    if (merged !== header) return true;
    return urlTokenSeen(client.ref) ?? true;
  }

  async function onAuth(client: Client, joinOptions: unknown, context: RoomAuthContext): Promise<GameUser> {
    try {
      if (registry.closing) throw shuttingDown();
      const headers = headerRecord(context?.headers);
      if (carriedUrlToken(client, context?.token, bearerOf(headers))) throw invalidRequest('token in the URL is not accepted');
      const explicit = (joinOptions as { token?: unknown } | null | undefined)?.token;
      const found = handshakeToken({ method: 'WEBSOCKET', headers }, undefined, explicit);
      return await admit(client, found);
    } catch (err) {
      // A session ended meanwhile refuses the join: 4401 relogin (logout), 4403 denied (admin).
      throw new RoomAuthError(err instanceof SessionEndedMeanwhile ? endedError(err.reason) : err, authenticate.realm);
    }
  }

  async function reconnected(client: Client): Promise<boolean> {
    const auth: unknown = client.auth;
    const found = auth !== null && typeof auth === 'object' ? tokens.get(auth as GameUser) : undefined;
    // Colyseus confirms the reconnection to the client (JOIN_ROOM) once the
    // microtasks that resolved allowReconnection have run: anything sent or
    // closed before that would reach a client that has not joined yet.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      if (registry.closing) throw shuttingDown();
      if (found === undefined) throw new PlatformError({ kind: 'missing_credentials', message: 'This client did not join through gamePlatformRoomAuth, or the server ended its session: log in again.' });
      client.auth = await admit(client, found);
      return true;
    } catch (err) {
      if (isOpen(client)) closerFor(client)(endingFor(err));
      return false;
    }
  }

  function register(room: Room): void {
    // Rooms are created after the server has its transport: from here on, every room socket is watched.
    watchTransport(currentTransport());
    room.onMessage('auth:refresh', (client: Client, message: { token?: unknown } | undefined) => {
      const connection = connections.get(client);
      if (connection === undefined) return;
      void registry.refresh(connection, message?.token).then((result) => {
        if (result.ok) client.send('auth:refreshed', { member_no: result.user.memberNo });
        else if (!result.ended) client.send('auth:refresh-failed', { problem: problemResponse(result.error).body });
        if (!result.ok) return;
        client.auth = result.user;
        tokens.set(result.user, { token: message!.token as string, source: 'header' });
      });
    });
    room.onMessage('ping', (client: Client) => {
      const connection = connections.get(client);
      if (connection !== undefined) client.send('pong', { member_no: connection.memberNo });
    });
  }

  return { onAuth, register, reconnected, connectionOf: (client) => connections.get(client) };
}
