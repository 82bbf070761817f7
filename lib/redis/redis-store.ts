import type { StoreState, VerificationStore } from '../fleet/index.js';
import { checkPrefix } from './redis-like.js';
import type { RedisClientLike } from './redis-like.js';

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
 * const store = new RedisVerificationStore(redis, { prefix: 'pgp:MYGAME:' });
 * ```
 */
export class RedisVerificationStore implements VerificationStore {
  readonly shared = true;
  readonly prefix: string;

  constructor(private readonly client: RedisClientLike, options: { prefix: string }) {
    this.prefix = checkPrefix(options?.prefix);
  }

  async get(key: string): Promise<unknown> {
    const raw = await this.client.get(this.prefix + key);
    if (typeof raw !== 'string') return undefined;
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return undefined;
    }
  }

  set(key: string, value: unknown, ttlMs: number): Promise<unknown> {
    return this.client.set(this.prefix + key, JSON.stringify(value), { PX: Math.max(1, Math.ceil(ttlMs)) });
  }

  delete(key: string): Promise<unknown> {
    return this.client.del(this.prefix + key);
  }

  onReady(listener: () => void): void {
    this.client.on?.('ready', listener);
  }

  health(): StoreState {
    if (this.client.isReady) return { state: 'ready' };
    return { state: this.client.isOpen ? 'connecting' : 'down' };
  }
}
