export * from './defaults.js';
export type { CircuitBreakerOptions, PlatformConfig, PlatformEnvironment, ResolvedPlatformConfig, ResultCacheOptions } from './platform-config.js';
export { resolvePlatformConfig, configWith } from './resolve-config.js';
export { fromEnv } from './from-env.js';
export { fingerprint, tokenKey } from './fingerprint.js';
export { silentLogger } from './silent-logger.js';
export { monotonicFor, processMonotonic } from './monotonic.js';
export type { MonotonicClock } from './monotonic.js';
