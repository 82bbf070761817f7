import { MAX_CACHE_TTL_MS } from '../lib/config/defaults.js';
import type { RedisTarget } from '../lib/redis/index.js';

/**
 * Where the instances share state: one server (`REDIS_URL`), a Cluster
 * (`REDIS_CLUSTER_URLS`) or Sentinel (`REDIS_SENTINELS` with
 * `REDIS_SENTINEL_MASTER`).
 */
export type RedisLocation =
  | { kind: 'url'; url: string }
  | { kind: 'cluster'; urls: string[] }
  | { kind: 'sentinel'; sentinels: string[]; masterName: string };

/** The example app's settings for several instances (REDIS_URL or REDIS_CLUSTER_URLS or REDIS_SENTINELS, REDIS_PREFIX, VERIFY_CACHE_TTL_MS). */
export interface FleetSettings {
  /** null: nothing is shared between instances. */
  redis: RedisLocation | null;
  /** `REDIS_PREFIX`; default `pgp:<environment>:<game_id>:` (environment: live, sandbox or custom). */
  redisPrefix: string;
  /** `VERIFY_CACHE_TTL_MS`; 0 (default): no verification cache. In Redis when Redis is set. */
  verifyCacheTtlMs: number;
}

type Env = Readonly<Record<string, string | undefined>>;

const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

const REDIS_URL = /^rediss?:\/\/[^\s,]+$/;
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s:,[\]]+):\d{1,5}$/;
const list = (value: string): string[] => value.split(',').map((item) => item.trim()).filter((item) => item !== '');

/** Reads where Redis is; throws an Error naming the variable to fix (or both, when two are set). */
function loadRedisLocation(env: Env): RedisLocation | null {
  const names = ['REDIS_URL', 'REDIS_CLUSTER_URLS', 'REDIS_SENTINELS'] as const;
  const set = names.filter((name) => read(env, name) !== undefined);
  if (set.length > 1) throw new Error(`${set.join(' and ')} are ${set.length === 2 ? 'both' : 'all'} set: give one of REDIS_URL, REDIS_CLUSTER_URLS or REDIS_SENTINELS.`);
  const master = read(env, 'REDIS_SENTINEL_MASTER');
  if (master !== undefined && set.length === 1 && set[0] !== 'REDIS_SENTINELS') throw new Error(`REDIS_SENTINEL_MASTER is set with ${set[0]}: it names the master group of REDIS_SENTINELS only.`);
  if (set.length === 0) {
    if (master !== undefined) throw new Error('REDIS_SENTINEL_MASTER is set without REDIS_SENTINELS.');
    return null;
  }
  const value = read(env, set[0]!)!;
  if (set[0] === 'REDIS_URL') {
    if (!REDIS_URL.test(value)) throw new Error('REDIS_URL must be a redis:// or rediss:// URL.');
    return { kind: 'url', url: value };
  }
  if (set[0] === 'REDIS_CLUSTER_URLS') {
    const urls = list(value);
    if (urls.length === 0 || !urls.every((url) => REDIS_URL.test(url))) throw new Error('REDIS_CLUSTER_URLS must be comma-separated redis://host:port (or rediss://) seed nodes.');
    return { kind: 'cluster', urls };
  }
  const sentinels = list(value);
  if (sentinels.length === 0 || !sentinels.every((s) => HOST_PORT.test(s))) throw new Error('REDIS_SENTINELS must be comma-separated host:port sentinels.');
  if (master === undefined) throw new Error('REDIS_SENTINELS needs REDIS_SENTINEL_MASTER, the name of the master group the sentinels watch.');
  return { kind: 'sentinel', sentinels, masterName: master };
}

/** What `createRedisFleet` is given for `location`. */
export function redisTarget(location: RedisLocation): RedisTarget {
  if (location.kind === 'url') return { url: location.url };
  if (location.kind === 'cluster') return { cluster: location.urls };
  return { sentinel: { sentinels: location.sentinels, masterName: location.masterName } };
}

/** `location` for a log line, without passwords. */
export function describeRedisLocation(location: RedisLocation): string {
  const hide = (url: string): string => url.replace(/\/\/[^@/]*@/, '//***@');
  if (location.kind === 'url') return hide(location.url);
  if (location.kind === 'cluster') return `cluster ${location.urls.map(hide).join(',')}`;
  return `sentinel ${location.masterName} via ${location.sentinels.join(',')}`;
}

/**
 * Reads the fleet settings; throws an Error naming the variable to fix.
 * `environment` is the platform's (`live`, `sandbox`, or `custom` for any
 * other base URL, such as an emulator's): the default prefix names it, so a
 * reader of Redis sees which environment and game a key is for.
 */
export function loadFleetSettings(env: Env, gameId: string, environment: string): FleetSettings {
  const redis = loadRedisLocation(env);
  const prefix = read(env, 'REDIS_PREFIX') ?? `pgp:${environment}:${gameId}:`;
  if (prefix.length > 100 || !/^[\x21-\x7e]+$/.test(prefix)) {
    throw new Error('REDIS_PREFIX must be 1 to 100 visible ASCII characters.');
  }
  const ttl = read(env, 'VERIFY_CACHE_TTL_MS') ?? '0';
  if (!/^\d{1,7}$/.test(ttl) || Number(ttl) > MAX_CACHE_TTL_MS) {
    throw new Error(`VERIFY_CACHE_TTL_MS must be a whole number of milliseconds from 0 to ${MAX_CACHE_TTL_MS}, got "${ttl}".`);
  }
  return { redis, redisPrefix: prefix, verifyCacheTtlMs: Number(ttl) };
}
