import { LazyLru } from '../store/index.js';
import type { MonotonicClock } from '../time/monotonic.js';

/** Most refused tokens remembered at once (a flood of distinct garbage tokens evicts the oldest). */
export const REFUSAL_CACHE_MAX_ENTRIES = 10_000;

/**
 * Remembers, for a few seconds, the user tokens the platform refused (40000),
 * by their digest: a refused token never becomes valid, so asking again only
 * turns one client's retry loop or flood into platform calls. Bounded in size,
 * timed on the monotonic clock, expired on read (no timers).
 */
export class RefusalCache {
  readonly #lru: LazyLru<string, number> | undefined;

  constructor(ttlMs: number, clock: MonotonicClock) {
    this.#lru = ttlMs === 0 ? undefined : new LazyLru<string, number>({
      max: REFUSAL_CACHE_MAX_ENTRIES, ttl: ttlMs, ttlResolution: 0, ttlAutopurge: false, perf: clock,
    });
  }

  /**
   * True when nothing is remembered (a lookup would find nothing). A plain
   * field, read on every verification: the entries change only by
   * {@link get} (an expired one is dropped when read) and {@link set}, which
   * keep it. Read it, never write it.
   */
  empty = true;

  /** The platform's code when `key` was refused lately. */
  get(key: string): number | undefined {
    const code = this.#lru?.get(key);
    this.empty = this.#lru === undefined || this.#lru.size === 0;
    return code;
  }

  set(key: string, code: number): void {
    this.#lru?.set(key, code);
    this.empty = this.#lru === undefined || this.#lru.size === 0;
  }
}
