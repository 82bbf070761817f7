/**
 * `passport-game-platform/socket.io`: authenticated, re-verified Socket.IO
 * connections (`socket.io` is an optional peer dependency).
 *
 * @packageDocumentation
 */
export { useSocketIoAuth, connectError } from './socket-io-auth.js';
export type { SocketIoAuthOptions, ConnectError } from './socket-io-auth.js';
export { gameUser } from './game-socket.js';
export type { GameSocket, GameSocketData, GameServer, GameNamespace } from './game-socket.js';
export { DEFAULT_MAX_QUEUED_BYTES } from './output-bound.js';
export { SessionRegistry, LiveConnection, Reverifier, DEFAULT_REVERIFY_INTERVAL_MS, DEFAULT_REVERIFY_GRACE_MS, DEFAULT_MIN_REFRESH_INTERVAL_MS } from '../realtime/index.js';
export type { SessionRegistryOptions, ReverifyOptions, ReverifyStats, RefreshResult, Transport, SessionEndReason, ConnectionEnding, SessionEndEvent } from '../realtime/index.js';
export type { TokenGroup, ConnectionCloser, ConnectionInit } from '../realtime/index.js';
