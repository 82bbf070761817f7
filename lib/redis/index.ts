// passport-game-platform/redis: the verification store and revocation bus on Redis (node-redis, an optional peer).
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { RedisVerificationStore, UNREADABLE_VALUE } from './redis-store.js';
export { RedisRevocationBus, END_LOG_WINDOW_MS, END_LOG_MAX_ENTRIES, LOG_SWEEP_MS, RESEND_WINDOW_MS, endBusNames } from './redis-bus.js';
export type { BusStats, RedisBusOptions } from './redis-bus.js';
export { createRedisFleet } from './redis-fleet.js';
export type { RedisFleet, RedisFleetOptions } from './redis-fleet.js';
export type { RedisTarget } from './redis-connections.js';
export { topologyOf } from './redis-commands.js';
export type { RedisTopology } from './redis-commands.js';
export type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
