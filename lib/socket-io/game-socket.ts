import type { DefaultEventsMap, Namespace, Server, Socket } from 'socket.io';
import type { LiveConnection } from '../realtime/index.js';
import type { GameUser } from '../types.js';

/** What the adapter keeps on `socket.data` once a socket is authenticated. */
export interface GameSocketData {
  /** The player, as the platform verified them (kept current by `auth:refresh`). */
  user: GameUser;
  /** The socket's entry in the live-session registry. */
  connection: LiveConnection;
}

/** Socket.IO's own constraint on event maps (the package does not export it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Socket.IO types its event maps and socket data with any
export type EventsMap = { [event: string]: any };

/**
 * An authenticated socket: `socket.data.user` is the {@link GameUser}. The
 * event maps default to Socket.IO's own defaults, as for an untyped server.
 */
export type GameSocket<
  ListenEvents extends EventsMap = DefaultEventsMap,
  EmitEvents extends EventsMap = ListenEvents,
  ServerSideEvents extends EventsMap = DefaultEventsMap,
> = Socket<ListenEvents, EmitEvents, ServerSideEvents, GameSocketData>;

/** A Socket.IO server whose sockets carry {@link GameSocketData}: what `useSocketIoAuth` returns. */
export type GameServer<
  ListenEvents extends EventsMap = DefaultEventsMap,
  EmitEvents extends EventsMap = ListenEvents,
  ServerSideEvents extends EventsMap = DefaultEventsMap,
> = Server<ListenEvents, EmitEvents, ServerSideEvents, GameSocketData>;

/** A namespace whose sockets carry {@link GameSocketData}. */
export type GameNamespace<
  ListenEvents extends EventsMap = DefaultEventsMap,
  EmitEvents extends EventsMap = ListenEvents,
  ServerSideEvents extends EventsMap = DefaultEventsMap,
> = Namespace<ListenEvents, EmitEvents, ServerSideEvents, GameSocketData>;

/** Any socket, whatever its event maps or data type. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- Socket.IO types its event maps and socket data with any
export type AnySocket = Socket<any, any, any, any>;

/**
 * The player of a socket the adapter authenticated, typed, whatever the
 * server's generics: `io.on('connection', (socket) => gameUser(socket).memberNo)`.
 * Throws a `TypeError` for a socket no `useSocketIoAuth` guard let in (a
 * namespace left open on purpose), so a missing guard cannot pass for a player.
 */
export function gameUser(socket: AnySocket): GameUser {
  const user = (socket.data as Partial<GameSocketData> | undefined)?.user;
  if (user === undefined) throw new TypeError('gameUser: this socket was not authenticated by useSocketIoAuth');
  return user;
}
