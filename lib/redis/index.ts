// passport-game-platform/redis: the verification store and revocation bus on Redis (node-redis, an optional peer).
export { RedisVerificationStore } from './redis-store.js';
export { RedisRevocationBus } from './redis-bus.js';
export { createRedisFleet } from './redis-fleet.js';
export type { RedisFleet, RedisFleetOptions } from './redis-fleet.js';
export type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
