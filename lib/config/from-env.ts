import type { PlatformConfig, ResolvedPlatformConfig } from './platform-config.js';
import { resolvePlatformConfig } from './resolve-config.js';
import { configError } from './validate.js';

type Env = Record<string, string | undefined>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function required(env: Env, name: string, override: unknown): string | undefined {
  const value = read(env, name);
  if (value === undefined && override === undefined) throw configError(`"${name}" is required`);
  return value;
}

/**
 * Builds the configuration from environment variables: `PLATFORM_BASE_URL`
 * or `PLATFORM_ENV` (`live`/`sandbox`), `PLATFORM_CLIENT_ID`,
 * `PLATFORM_CLIENT_SECRET`, `PLATFORM_GAME_ID`, optional
 * `PLATFORM_INSTANCE_ID` and `PLATFORM_TIMEOUT_MS`. `overrides` (logger,
 * clock, cache, ...) win over the environment. Throws a `TypeError` naming the
 * missing or invalid variable.
 *
 * @example
 * ```ts
 * import { fromEnv, PlatformClient } from 'passport-game-platform';
 * const client = new PlatformClient(fromEnv(process.env, { cache: { ttlMs: 30_000 } }));
 * ```
 */
export function fromEnv(env: Env = process.env, overrides: Partial<PlatformConfig> = {}): ResolvedPlatformConfig {
  const baseUrl = read(env, 'PLATFORM_BASE_URL');
  const environment = read(env, 'PLATFORM_ENV')?.toLowerCase();
  if (environment !== undefined && environment !== 'live' && environment !== 'sandbox') {
    throw configError('"PLATFORM_ENV" must be "live" or "sandbox"');
  }
  if (baseUrl === undefined && environment === undefined && overrides.baseUrl === undefined && overrides.environment === undefined) {
    throw configError('"PLATFORM_BASE_URL" or "PLATFORM_ENV" is required');
  }
  const timeout = read(env, 'PLATFORM_TIMEOUT_MS');
  if (timeout !== undefined && !/^\d{1,9}$/.test(timeout)) throw configError('"PLATFORM_TIMEOUT_MS" must be an integer');
  const instanceId = read(env, 'PLATFORM_INSTANCE_ID');
  const options: PlatformConfig = {
    ...(baseUrl === undefined ? {} : { baseUrl }),
    ...(environment === undefined ? {} : { environment }),
    clientId: required(env, 'PLATFORM_CLIENT_ID', overrides.clientId) ?? '',
    clientSecret: required(env, 'PLATFORM_CLIENT_SECRET', overrides.clientSecret) ?? '',
    gameId: required(env, 'PLATFORM_GAME_ID', overrides.gameId) ?? '',
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(timeout === undefined ? {} : { timeoutMs: Number(timeout) }),
  };
  return resolvePlatformConfig({ ...options, ...overrides });
}
