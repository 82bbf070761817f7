/**
 * `passport-game-platform/ws`: authenticated, re-verified WebSocket
 * connections for the `ws` package (an optional peer dependency).
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { attachWebSocket, FIRST_MESSAGE_TIMEOUT_MS, MAX_QUEUED_MESSAGES } from './websocket-auth.js';
export type { WebSocketAuthOptions, AttachedWebSocket } from './websocket-auth.js';
export { refuseUnservedUpgrades } from './unserved-upgrades.js';
export { DEFAULT_HEARTBEAT_INTERVAL_MS } from './heartbeat.js';
export { DEFAULT_MAX_BUFFERED_BYTES, DEFAULT_MAX_PRE_AUTH_BYTES } from '../realtime/index.js';
