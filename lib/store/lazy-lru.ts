import { LRUCache } from 'lru-cache';

/**
 * An `LRUCache` built on its first write. lru-cache sizes its arrays for `max`
 * when it is built (about 23 ms and 4 MB at 100,000 entries with a TTL), and
 * most of these caches (revocations, refusals, ends) stay empty for the life
 * of a client; reads of an empty cache touch nothing, not even the clock.
 */
export class LazyLru<K extends NonNullable<unknown>, V extends NonNullable<unknown>> {
  #lru: LRUCache<K, V> | undefined;

  private readonly options: LRUCache.Options<K, V, unknown>;

  constructor(options: LRUCache.Options<K, V, unknown>) {
    this.options = options;
  }

  /** Entries held now (expired ones included until read). */
  get size(): number {
    return this.#lru === undefined ? 0 : this.#lru.size;
  }

  get(key: K): V | undefined {
    return this.#lru === undefined || this.#lru.size === 0 ? undefined : this.#lru.get(key);
  }

  has(key: K): boolean {
    return this.#lru !== undefined && this.#lru.size > 0 && this.#lru.has(key);
  }

  set(key: K, value: V, options?: LRUCache.SetOptions<K, V, unknown>): void {
    (this.#lru ??= new LRUCache<K, V>(this.options)).set(key, value, options);
  }

  delete(key: K): boolean {
    return this.#lru !== undefined && this.#lru.delete(key);
  }
}
