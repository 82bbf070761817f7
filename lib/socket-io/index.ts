/**
 * `passport-game-platform/socket.io`: authenticated, re-verified Socket.IO
 * connections (`socket.io` is an optional peer dependency).
 *
 * @packageDocumentation
 */
export { useSocketIoAuth, connectError } from './socket-io-auth.js';
export type { SocketIoAuthOptions, ConnectError, GameSocketData } from './socket-io-auth.js';
