/**
 * `passport-game-platform/socket.io`: authenticated, re-verified Socket.IO
 * connections (`socket.io` is an optional peer dependency).
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { useSocketIoAuth, connectError } from './socket-io-auth.js';
export type { SocketIoAuthOptions, ConnectError } from './socket-io-auth.js';
export { gameUser } from './game-socket.js';
export type { GameSocket, GameSocketData, GameServer, GameNamespace, EventsMap, AnySocket } from './game-socket.js';
export { DEFAULT_MAX_QUEUED_BYTES } from './output-bound.js';
