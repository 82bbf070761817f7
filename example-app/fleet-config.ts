import { MAX_CACHE_TTL_MS } from '../lib/config/defaults.js';

/** The example app's settings for several instances (REDIS_URL, REDIS_PREFIX, VERIFY_CACHE_TTL_MS). */
export interface FleetSettings {
  /** `REDIS_URL`; null: nothing is shared between instances. */
  redisUrl: string | null;
  /** `REDIS_PREFIX`; default `pgp:<environment>:<game_id>:` (environment: live, sandbox or custom). */
  redisPrefix: string;
  /** `VERIFY_CACHE_TTL_MS`; 0 (default): no verification cache. In Redis when REDIS_URL is set. */
  verifyCacheTtlMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Reads the fleet settings; throws an Error naming the variable to fix.
 * `environment` is the platform's (`live`, `sandbox`, or `custom` for any
 * other base URL, such as an emulator's): the default prefix names it, so a
 * reader of Redis sees which environment and game a key is for.
 */
export function loadFleetSettings(env: Env, gameId: string, environment: string): FleetSettings {
  const url = read(env, 'REDIS_URL');
  if (url !== undefined && !/^rediss?:\/\/[^\s]+$/.test(url)) {
    throw new Error('REDIS_URL must be a redis:// or rediss:// URL.');
  }
  const prefix = read(env, 'REDIS_PREFIX') ?? `pgp:${environment}:${gameId}:`;
  if (prefix.length > 100 || !/^[\x21-\x7e]+$/.test(prefix)) {
    throw new Error('REDIS_PREFIX must be 1 to 100 visible ASCII characters.');
  }
  const ttl = read(env, 'VERIFY_CACHE_TTL_MS') ?? '0';
  if (!/^\d{1,7}$/.test(ttl) || Number(ttl) > MAX_CACHE_TTL_MS) {
    throw new Error(`VERIFY_CACHE_TTL_MS must be a whole number of milliseconds from 0 to ${MAX_CACHE_TTL_MS}, got "${ttl}".`);
  }
  return { redisUrl: url ?? null, redisPrefix: prefix, verifyCacheTtlMs: Number(ttl) };
}
