import { LRUCache } from 'lru-cache';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { GameUser } from '../types.js';

/**
 * The opt-in cache of verified user tokens: keyed by the token's SHA-256
 * (never the token), successes only, bounded in size and age, timed by
 * `config.clock` and expired on read (no timers).
 */
export class ResultCache {
  readonly #lru: LRUCache<string, Readonly<GameUser>> | undefined;

  constructor(config: ResolvedPlatformConfig) {
    const options = config.cache;
    this.#lru = options === undefined ? undefined : new LRUCache<string, Readonly<GameUser>>({
      max: options.maxEntries,
      ttl: options.ttlMs,
      ttlResolution: 0,
      ttlAutopurge: false,
      perf: config.monotonic,
    });
  }

  get(key: string): GameUser | undefined {
    const hit = this.#lru?.get(key);
    return hit === undefined ? undefined : { ...hit };
  }

  set(key: string, user: GameUser): void {
    this.#lru?.set(key, Object.freeze({ ...user }));
  }

  delete(key: string): void {
    this.#lru?.delete(key);
  }

  get size(): number {
    return this.#lru?.size ?? 0;
  }
}
