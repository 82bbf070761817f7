/**
 * `passport-game-platform/colyseus`: `onAuth` for Colyseus rooms with
 * re-verification, in-band refresh and session ending (`@colyseus/core` is
 * an optional peer dependency; tested with 0.16 and 0.18).
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { gamePlatformRoomAuth, RoomAuthError } from './room-auth.js';
export type { RoomAuth, RoomAuthOptions, RoomAuthContext } from './room-auth.js';
export type { WatchableTransport } from './url-token.js';
