/**
 * `passport-game-platform/realtime`: what the `ws`, Socket.IO and Colyseus
 * adapters share, exported here only: the live-session registry, periodic
 * re-verification, in-band refresh and ending connections on purpose. It
 * loads no framework.
 *
 * @example
 * ```ts
 * import { SessionRegistry } from 'passport-game-platform/realtime';
 * import { attachWebSocket } from 'passport-game-platform/ws';
 * ```
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { SessionRegistry, LiveConnection } from './session-registry.js';
export type { SessionRegistryOptions, RefreshResult, TokenGroup, ConnectionCloser } from './session-registry.js';
export { Reverifier, DEFAULT_REVERIFY_INTERVAL_MS, DEFAULT_REVERIFY_GRACE_MS } from './reverifier.js';
export type { ReverifiedSessions, ReverifyOptions, ReverifyStats } from './reverifier.js';
export { WS_CLOSE, closeCodeFor, closeFrameFor } from './close-codes.js';
export { DEFAULT_MIN_REFRESH_INTERVAL_MS } from './refresh-limit.js';
export { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_PRE_AUTH_BYTES, OUTBOUND_OVERFLOW, checkByteBound, exceedsOutbound } from './byte-bounds.js';
export type { Transport, SessionEndReason, ConnectionEnding, ConnectionInit, SessionEndEvent } from './types.js';
