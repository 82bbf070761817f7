import type { StoreState, VerificationStore } from '../store/index.js';
import { checkPrefix } from './redis-like.js';
import type { RedisClientLike } from './redis-like.js';
import { onReconnect, topologyOf } from './redis-commands.js';
import type { RedisTopology } from './redis-commands.js';
import { RecentMarkers, debouncedResend } from './resend-window.js';

/** What {@link RedisVerificationStore.get} answers for a key holding something unreadable (frozen, no identifiers). */
export const UNREADABLE_VALUE: Readonly<{ unreadable: true }> = Object.freeze({ unreadable: true });

/** Redis error replies meaning "not for you": a store answering them is down for us until they stop. */
const REFUSALS: ReadonlySet<string> = new Set(['NOAUTH', 'NOPERM', 'WRONGPASS']);

/** The error reply's code (its first word in capitals, e.g. `WRONGTYPE`), if the error is one. */
function replyCode(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : undefined;
  const match = message === undefined ? null : /^([A-Z]{3,})\b/.exec(message);
  return match === null ? undefined : match[1];
}

/**
 * A {@link VerificationStore} on Redis through node-redis: every key is
 * `prefix + key` (a digest under a kind, never a token), values are JSON of
 * identifiers, and entries expire in Redis (`PX`). Create the client with
 * `disableOfflineQueue: true` so commands fail at once while Redis is down
 * (the client then asks the platform) instead of waiting for a reconnection;
 * {@link createRedisFleet} does.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { RedisVerificationStore } from 'passport-game-platform/redis';
 * const redis = createClient({ url: 'redis://localhost:6379', disableOfflineQueue: true });
 * redis.on('error', () => {}); // reconnects by itself; health() reports it
 * await redis.connect();
 * const store = new RedisVerificationStore(redis, { prefix: 'pgp:live:MYGAME:' });
 * ```
 */
export class RedisVerificationStore implements VerificationStore {
  readonly shared = true;
  readonly prefix: string;
  /**
   * Revocation markers also under the previous release's unscoped key, while
   * instances of both releases share this Redis. Default `true`.
   */
  readonly rollingUpgrade: boolean;
  /** Redis refused our credentials or rights on the latest command: down for us, however healthy the connection. */
  #refused = false;

  readonly #topology: RedisTopology;
  /** Revocation markers written lately: written again after a reconnection, in case a demoted primary dropped them. */
  readonly #markers = new RecentMarkers();
  readonly #rewrite = debouncedResend(() => this.#rewriteMarkers());
  /** A command failed and none has succeeded since: the next success is a recovery. */
  #failing = false;

  private readonly client: RedisClientLike;

  /** `client`: one server's, a Cluster's or a Sentinel's (`topology` says which; default: told from the client). */
  constructor(client: RedisClientLike, options: { prefix: string; topology?: RedisTopology; rollingUpgrade?: boolean }) {
    this.client = client;
    this.prefix = checkPrefix(options?.prefix);
    this.rollingUpgrade = options.rollingUpgrade ?? true;
    this.#topology = options.topology ?? topologyOf(client);
    onReconnect(client, this.#topology, () => this.#rewrite.schedule());
  }

  /**
   * The value at `prefix + key`, or undefined when there is none. A key that
   * holds something we cannot read (another type, unparsable JSON) answers
   * {@link UNREADABLE_VALUE}: present, so a revocation marker there counts as
   * revoked, and no cache entry (it is not one).
   */
  async get(key: string): Promise<unknown> {
    let raw: unknown;
    try {
      raw = await this.#watch(this.client.get(this.prefix + key));
    } catch (error) {
      if (replyCode(error) === 'WRONGTYPE') return UNREADABLE_VALUE;
      throw error;
    }
    if (raw === null || raw === undefined) return undefined;
    if (typeof raw !== 'string') return UNREADABLE_VALUE;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return UNREADABLE_VALUE;
    }
  }

  set(key: string, value: unknown, ttlMs: number): Promise<unknown> {
    const text = JSON.stringify(value);
    const px = Math.max(1, Math.ceil(ttlMs));
    this.#markers.note(key, text, px);
    return this.#watch(this.client.set(this.prefix + key, text, { PX: px }));
  }

  delete(key: string): Promise<unknown> {
    return this.#watch(this.client.del(this.prefix + key));
  }

  // Notes whether Redis refuses us (authentication, rights): such a store is down, not slow.
  async #watch<T>(pending: Promise<T>): Promise<T> {
    try {
      const value = await pending;
      this.#refused = false;
      if (this.#failing) {
        this.#failing = false;
        this.#rewrite.schedule();
      }
      return value;
    } catch (error) {
      this.#failing = true;
      const code = replyCode(error);
      if (code !== undefined && REFUSALS.has(code)) this.#refused = true;
      throw error;
    }
  }

  // Markers are only ever added (never deleted), so writing one again is always safe.
  #rewriteMarkers(): void {
    for (const { key, value, ttlMs } of this.#markers.due()) {
      this.client.set(this.prefix + key, value, { PX: ttlMs }).catch(() => {
        this.#failing = true; // the next success writes them again
      });
    }
  }

  onReady(listener: () => void): void {
    onReconnect(this.client, this.#topology, () => {
      this.#refused = false;
      listener();
    });
  }

  health(): StoreState {
    if (this.client.isReady) return { state: this.#refused ? 'down' : 'ready' };
    return { state: this.client.isOpen ? 'connecting' : 'down' };
  }
}
