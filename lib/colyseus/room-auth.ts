import type { IncomingHttpHeaders } from 'node:http';
import type { Client, Room } from '@colyseus/core';
import type { Authenticator } from '../auth/authenticate.js';
import { invalidRequest } from '../errors/index.js';
import { problemResponse } from '../middleware/problem-response.js';
import { closeFrameFor } from '../realtime/close-codes.js';
import { handshakeToken } from '../realtime/handshake.js';
import { shuttingDown } from '../realtime/pending-handshakes.js';
import type { LiveConnection, SessionRegistry } from '../realtime/session-registry.js';
import type { ConnectionEnding } from '../realtime/types.js';
import type { GameUser } from '../types.js';

/** What Colyseus hands `onAuth` (its `AuthContext`). */
export interface RoomAuthContext {
  token?: string | undefined;
  headers: IncomingHttpHeaders;
}

/** Options of {@link gamePlatformRoomAuth}. */
export interface RoomAuthOptions {
  /** The core authenticator (`createAuthenticator(client, ...)`). */
  authenticate: Authenticator<object, never>;
  /** The live-session registry shared with the other transports. */
  registry: SessionRegistry;
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

function closerFor(client: Client): (ending: ConnectionEnding) => void {
  return (ending) => {
    if (ending.kind === 'expired') client.send('auth:expired', { action: ending.action, ...(ending.code === undefined ? {} : { code: ending.code }) });
    else client.send('session:ended', { reason: ending.reason });
    // A client that has not acknowledged its join yet gets messages queued
    // until it does; send them now, or the close frame would overtake them.
    const queued = (client as unknown as { _enqueuedMessages?: unknown[] })._enqueuedMessages;
    if (queued !== undefined && queued.length > 0) {
      for (const data of queued.splice(0)) client.raw(data as Buffer);
    }
    client.leave(closeFrameFor(ending).code, ending.kind === 'expired' ? ending.action : ending.reason);
  };
}

/**
 * Authentication for Colyseus rooms (`@colyseus/core` 0.16), with the
 * re-verification, in-band refresh and session ending of the other
 * transports. The token comes from the join options (`{ token }`, sent in the
 * matchmaking request's body) or an `Authorization: Bearer` header on the
 * room's WebSocket (native clients). A token in the URL (`colyseus.js`'s
 * `client.auth.token` adds `_authToken=` to it) is refused.
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
  if (typeof authenticate?.token !== 'function') throw new TypeError('gamePlatformRoomAuth: authenticate must come from createAuthenticator');
  if (registry === undefined) throw new TypeError('gamePlatformRoomAuth: registry is required');
  const connections = new WeakMap<Client, LiveConnection>();

  async function onAuth(client: Client, joinOptions: unknown, context: RoomAuthContext): Promise<GameUser> {
    try {
      if (registry.closing) throw shuttingDown();
      const headerToken = bearerOf(context.headers ?? {});
      // Colyseus fills context.token from the URL's _authToken when there is one.
      if (context.token !== undefined && context.token !== headerToken) throw invalidRequest('token in the URL is not accepted');
      const explicit = (joinOptions as { token?: unknown } | null | undefined)?.token;
      const found = handshakeToken({ method: 'WEBSOCKET', headers: context.headers ?? {} }, undefined, explicit);
      const user = await authenticate.token(found.token, { source: found.source });
      const connection = registry.add({ transport: 'colyseus', user, token: found.token, source: found.source, close: closerFor(client) });
      connections.set(client, connection);
      client.ref.once('close', () => registry.remove(connection));
      return user;
    } catch (err) {
      throw new RoomAuthError(err, authenticate.realm);
    }
  }

  function register(room: Room): void {
    room.onMessage('auth:refresh', (client: Client, message: { token?: unknown } | undefined) => {
      const connection = connections.get(client);
      if (connection === undefined) return;
      void registry.refresh(connection, message?.token).then((result) => {
        if (result.ok) client.send('auth:refreshed', { member_no: result.user.memberNo });
        else if (!result.ended) client.send('auth:refresh-failed', { problem: problemResponse(result.error).body });
        if (result.ok) client.auth = result.user;
      });
    });
    room.onMessage('ping', (client: Client) => {
      const connection = connections.get(client);
      if (connection !== undefined) client.send('pong', { member_no: connection.memberNo });
    });
  }

  return { onAuth, register, connectionOf: (client) => connections.get(client) };
}
