/**
 * `passport-game-platform/colyseus`: `onAuth` for Colyseus rooms with
 * re-verification, in-band refresh and session ending (`@colyseus/core` is
 * an optional peer dependency; tested with 0.16 and 0.18).
 *
 * @packageDocumentation
 */
export { gamePlatformRoomAuth, RoomAuthError } from './room-auth.js';
export type { RoomAuth, RoomAuthOptions, RoomAuthContext } from './room-auth.js';
export type { WatchableTransport } from './url-token.js';
export { SessionRegistry, LiveConnection, Reverifier, WS_CLOSE, DEFAULT_REVERIFY_INTERVAL_MS, DEFAULT_REVERIFY_GRACE_MS } from '../realtime/index.js';
export type { SessionRegistryOptions, ReverifyOptions, ReverifyStats, RefreshResult, SessionEndReason, SessionEndEvent } from '../realtime/index.js';
export type { TokenGroup, ConnectionCloser, ConnectionInit } from '../realtime/index.js';
