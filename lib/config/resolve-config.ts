import { inspect } from 'node:util';
import type { Clock, Logger } from '../types.js';
import * as D from './defaults.js';
import type { PlatformConfig, ResolvedPlatformConfig } from './platform-config.js';
import { PLATFORM_HOSTS, environmentOfBaseUrl } from './hosts.js';
import { monotonicFor } from '../time/monotonic.js';
import { silentLogger } from '../logging/silent-logger.js';
import { CLIENT_SECRET, SecretBox, secretFromBox } from './secret-box.js';
import {
  assertVisibleAscii, configError, integerIn, isObject, optionalString, parseBaseUrl, requiredString,
} from './validate.js';

const resolved = new WeakSet<object>();
// Date.now itself (it reads no `this`): one function less on every request's path.
const systemClock: Clock = Object.freeze({ now: Date.now });

function resolveEnvironment(options: Record<string, unknown>): { baseUrl: string; environment: ResolvedPlatformConfig['environment'] } {
  // 'custom' is what a resolved config reports for an emulator's URL: a
  // spread copy of it carries that label back in, beside its baseUrl.
  const given = options.environment;
  if (given !== undefined && given !== 'live' && given !== 'sandbox' && given !== 'custom') {
    throw configError('"environment" must be "live" or "sandbox"');
  }
  const env = given === 'custom' ? undefined : given;
  if (options.baseUrl === undefined) {
    if (given === 'custom') throw configError('"environment" "custom" needs a "baseUrl"');
    if (env === undefined) throw configError('"baseUrl" or "environment" is required');
    return { baseUrl: PLATFORM_HOSTS[env], environment: env };
  }
  const baseUrl = parseBaseUrl(options.baseUrl);
  const hostEnvironment = environmentOfBaseUrl(baseUrl);
  // A copy of a Live config told `environment: 'sandbox'` must not keep calling Live.
  if (env !== undefined && hostEnvironment !== undefined && hostEnvironment !== env) {
    throw configError(`"baseUrl" is the ${hostEnvironment} platform but "environment" is "${env}": set one of them`);
  }
  return { baseUrl, environment: env ?? hostEnvironment ?? 'custom' };
}

function resolveLogger(value: unknown): Logger {
  if (value === undefined) return silentLogger;
  const ok = isObject(value) && ['debug', 'info', 'warn', 'error'].every((m) => typeof value[m] === 'function');
  if (!ok) throw configError('"logger" must have debug, info, warn and error methods');
  return value as unknown as Logger;
}

function resolveClock(value: unknown): Clock {
  if (value === undefined) return systemClock;
  if (!isObject(value) || typeof value.now !== 'function') throw configError('"clock" must have a now() method');
  return value as unknown as Clock;
}

function resolveCache(value: unknown): ResolvedPlatformConfig['cache'] {
  if (value === undefined || value === false) return undefined;
  if (!isObject(value)) throw configError('"cache" must be an object or false');
  if (value.ttlMs === undefined) throw configError('"cache.ttlMs" is required');
  const ttlMs = integerIn(value.ttlMs, 'cache.ttlMs', 1, D.MAX_CACHE_TTL_MS, 0);
  const maxEntries = integerIn(value.maxEntries, 'cache.maxEntries', 1, 1_000_000, D.DEFAULT_CACHE_MAX_ENTRIES);
  return Object.freeze({ ttlMs, maxEntries });
}

function resolveCircuitBreaker(value: unknown): ResolvedPlatformConfig['circuitBreaker'] {
  if (value === false) return undefined;
  if (value !== undefined && !isObject(value)) throw configError('"circuitBreaker" must be an object or false');
  const o: Record<string, unknown> = isObject(value) ? value : {};
  const failureThreshold = integerIn(o.failureThreshold, 'circuitBreaker.failureThreshold', 1, 1000, D.DEFAULT_CIRCUIT_FAILURE_THRESHOLD);
  const openMs = integerIn(o.openMs, 'circuitBreaker.openMs', 100, D.MAX_CIRCUIT_OPEN_MS, D.DEFAULT_CIRCUIT_OPEN_MS);
  return Object.freeze({ failureThreshold, openMs });
}

function resolveTimeouts(o: Record<string, unknown>) {
  const timeoutMs = integerIn(o.timeoutMs, 'timeoutMs', 1, D.MAX_TIMEOUT_MS, D.DEFAULT_TIMEOUT_MS);
  const totalTimeoutMs = integerIn(
    o.totalTimeoutMs, 'totalTimeoutMs', 1, D.MAX_TOTAL_TIMEOUT_MS, Math.max(D.DEFAULT_TOTAL_TIMEOUT_MS, timeoutMs),
  );
  if (totalTimeoutMs < timeoutMs) throw configError('"totalTimeoutMs" must not be less than "timeoutMs"');
  const retries = integerIn(o.retries, 'retries', 0, D.MAX_RETRIES, D.DEFAULT_RETRIES);
  const retryBaseDelayMs = integerIn(o.retryBaseDelayMs, 'retryBaseDelayMs', 0, D.MAX_RETRY_DELAY_MS, D.DEFAULT_RETRY_BASE_DELAY_MS);
  const retryMaxDelayMs = integerIn(
    o.retryMaxDelayMs, 'retryMaxDelayMs', 0, D.MAX_RETRY_DELAY_MS, Math.max(D.DEFAULT_RETRY_MAX_DELAY_MS, retryBaseDelayMs),
  );
  if (retryMaxDelayMs < retryBaseDelayMs) throw configError('"retryMaxDelayMs" must not be less than "retryBaseDelayMs"');
  return { timeoutMs, totalTimeoutMs, retries, retryBaseDelayMs, retryMaxDelayMs };
}

function redacted(this: ResolvedPlatformConfig): object {
  return { ...this, clientSecret: '[redacted]' };
}

// A spread copy of a resolved config has no `clientSecret` (it is not
// enumerable) but carries the boxed secret; an explicit `clientSecret` wins.
function resolveSecret(o: Record<string | symbol, unknown>): string {
  if (o.clientSecret !== undefined) return requiredString(o.clientSecret, 'clientSecret');
  return requiredString(secretFromBox(o[CLIENT_SECRET]), 'clientSecret');
}

/**
 * Checks the options once and returns a frozen configuration. Throws a
 * `TypeError` naming the faulty option (never its value). Already resolved
 * configurations are returned unchanged.
 *
 * @example
 * ```ts
 * import { resolvePlatformConfig } from 'passport-game-platform';
 * const config = resolvePlatformConfig({
 *   environment: 'sandbox', clientId: 'my-client', clientSecret: process.env.SECRET ?? '', gameId: 'MYGAME',
 * });
 * ```
 */
export function resolvePlatformConfig(options: PlatformConfig | ResolvedPlatformConfig): ResolvedPlatformConfig {
  if (!isObject(options)) throw configError('options must be an object');
  if (resolved.has(options)) return options as ResolvedPlatformConfig;
  const o = options as unknown as Record<string | symbol, unknown>;
  const { baseUrl, environment } = resolveEnvironment(o);
  const clientId = requiredString(o.clientId, 'clientId');
  const clientSecret = resolveSecret(o);
  const gameId = requiredString(o.gameId, 'gameId');
  assertVisibleAscii(gameId, 'gameId');
  const instanceId = optionalString(o.instanceId, 'instanceId');
  const clock = resolveClock(o.clock);
  const config = {
    baseUrl, environment, clientId, gameId, instanceId, callerId: `${gameId}_SERVER`,
    ...resolveTimeouts(o),
    logger: resolveLogger(o.logger),
    clock,
    monotonic: monotonicFor(clock, systemClock),
    cache: resolveCache(o.cache),
    maxConcurrentCalls: integerIn(o.maxConcurrentCalls, 'maxConcurrentCalls', 1, 10_000, D.DEFAULT_MAX_CONCURRENT_CALLS),
    maxQueuedCalls: integerIn(o.maxQueuedCalls, 'maxQueuedCalls', 0, 1_000_000, D.DEFAULT_MAX_QUEUED_CALLS),
    circuitBreaker: resolveCircuitBreaker(o.circuitBreaker),
    invalidTokenCacheMs: integerIn(o.invalidTokenCacheMs, 'invalidTokenCacheMs', 0, D.MAX_INVALID_TOKEN_CACHE_MS, D.DEFAULT_INVALID_TOKEN_CACHE_MS),
  };
  Object.defineProperty(config, 'clientSecret', { value: clientSecret, enumerable: false });
  Object.defineProperty(config, CLIENT_SECRET, { value: new SecretBox(clientSecret), enumerable: true });
  Object.defineProperty(config, inspect.custom, { value: redacted, enumerable: false });
  Object.freeze(config);
  resolved.add(config);
  return config as ResolvedPlatformConfig;
}

/** The options a resolved config came from (secret included), to derive a variant of it. */
export function configWith(config: ResolvedPlatformConfig, overrides: Partial<PlatformConfig>): ResolvedPlatformConfig {
  const base: PlatformConfig = {
    baseUrl: config.baseUrl,
    ...(config.environment === 'custom' ? {} : { environment: config.environment }),
    clientId: config.clientId,
    clientSecret: config.clientSecret,
    gameId: config.gameId,
    ...(config.instanceId === undefined ? {} : { instanceId: config.instanceId }),
    timeoutMs: config.timeoutMs,
    totalTimeoutMs: config.totalTimeoutMs,
    retries: config.retries,
    retryBaseDelayMs: config.retryBaseDelayMs,
    retryMaxDelayMs: config.retryMaxDelayMs,
    logger: config.logger,
    clock: config.clock,
    cache: config.cache ?? false,
    maxConcurrentCalls: config.maxConcurrentCalls,
    maxQueuedCalls: config.maxQueuedCalls,
    circuitBreaker: config.circuitBreaker ?? false,
    invalidTokenCacheMs: config.invalidTokenCacheMs,
  };
  return resolvePlatformConfig({ ...base, ...overrides });
}
