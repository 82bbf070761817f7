import { LazyLru } from './lazy-lru.js';

/**
 * Where verified tokens (and, when shared, revocations) are kept: three
 * promise-returning methods, so any key-value store fits. A
 * [Keyv](https://keyv.org) instance satisfies it as is (`get(key)`,
 * `set(key, value, ttlMs)`, `delete(key)`), so any Keyv adapter can be used.
 *
 * Keys handed to a store are digests of tokens (SHA-256, hex) under the
 * client's tenant scope and a short kind (`<scope>:E2:`, `<scope>:web:`,
 * `<scope>:revoked:`), never tokens; values are small plain objects holding
 * identifiers only (member_no, guid, an expiry time). Two clients of other
 * games or platforms can share one store: neither reads the other's keys.
 * A store that throws, rejects or answers slowly never fails a request: the
 * client asks the platform instead.
 *
 * @example
 * ```ts
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * // `new Keyv(...)` fits as is; a Map-backed store shows the shape without the dependency.
 * const entries = new Map<string, unknown>();
 * const store = {
 *   get: async (key: string) => entries.get(key),
 *   set: async (key: string, value: unknown) => entries.set(key, value),
 *   delete: async (key: string) => entries.delete(key),
 * };
 * const client = new PlatformClient({ ...fromEnv(), cache: { ttlMs: 30_000 }, store });
 * ```
 */
export interface VerificationStore {
  get(key: string): Promise<unknown>;
  set(key: string, value: unknown, ttlMs: number): Promise<unknown>;
  delete(key: string): Promise<unknown>;
  /**
   * Optional: whether the store is reachable now (readiness). Stores without
   * it are judged by their latest operations.
   */
  health?(): StoreState;
  /**
   * Optional: calls `listener` each time the store's connection becomes ready
   * again, so what waited for it (revocations made while it was down) is sent
   * at once rather than with the next request.
   */
  onReady?(listener: () => void): void;
  /** Optional: true for a store every instance shares (Redis); false or absent for a local one. */
  readonly shared?: boolean;
  /**
   * Optional: true while instances of the previous release share this store
   * (a rolling upgrade): revocation markers are then also written and read
   * under the previous release's unscoped key, `revoked:<digest>`.
   */
  readonly rollingUpgrade?: boolean;
}

/** A store's own view of its connection. */
export interface StoreState {
  state: 'ready' | 'connecting' | 'down';
}

/** Most entries of the default in-memory store. */
export const DEFAULT_MEMORY_STORE_MAX_ENTRIES = 10_000;

/** Options of {@link MemoryVerificationStore}. */
export interface MemoryStoreOptions {
  /** Most entries (least recently used ones go first); default 10000. */
  maxEntries?: number;
  /** Clock for the entries' ages; default `performance.now()`. */
  clock?: { now(): number };
}

/**
 * The default store: a bounded LRU in this process's memory, expired on
 * read (no timers). Nothing is shared with other instances.
 */
export class MemoryVerificationStore implements VerificationStore {
  readonly shared = false;
  readonly #lru: LazyLru<string, NonNullable<unknown>>;

  constructor(options: MemoryStoreOptions = {}) {
    this.#lru = new LazyLru<string, NonNullable<unknown>>({
      max: options.maxEntries ?? DEFAULT_MEMORY_STORE_MAX_ENTRIES,
      ttlResolution: 0,
      ttlAutopurge: false,
      ...(options.clock === undefined ? {} : { perf: options.clock }),
    });
  }

  get(key: string): Promise<unknown> {
    return Promise.resolve(this.#lru.get(key));
  }

  /** The same as {@link get}, without a promise (the client's hot path for a local cache). */
  peek(key: string): unknown {
    return this.#lru.get(key);
  }

  set(key: string, value: unknown, ttlMs: number): Promise<true> {
    if (value === undefined || value === null) this.#lru.delete(key);
    else this.#lru.set(key, value, { ttl: Math.max(1, Math.ceil(ttlMs)) });
    return Promise.resolve(true);
  }

  delete(key: string): Promise<boolean> {
    return Promise.resolve(this.#lru.delete(key));
  }

  health(): StoreState {
    return { state: 'ready' };
  }

  /** Entries held now (expired ones included until read). */
  get size(): number {
    return this.#lru.size;
  }
}
