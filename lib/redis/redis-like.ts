/**
 * The few node-redis (`redis` 4 to 6) client methods the store and the bus
 * use, so any client fits, whatever its modules: one built by
 * `createClient()`, `createCluster()` or `createSentinel()`.
 */
export interface RedisClientLike {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  get(key: string): Promise<string | null | unknown>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  /**
   * Any command as words (the session-end log: `XADD`, `XRANGE`, `PEXPIRE`,
   * `TIME`; `SPUBLISH`). Its signature depends on the kind of client: one
   * server `(args)`, Sentinel `(isReadonly, args)`, Cluster `(firstKey,
   * isReadonly, args)`; `lib/redis/redis-commands.ts` calls each its own way.
   */
  sendCommand(...args: never[]): Promise<unknown>;
  /** node-redis emits `ready` (a Cluster `node-ready`) each time a connection is (re)established. */
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** A node-redis client in subscriber mode (`client.duplicate()`, of any of the three kinds). */
export interface RedisSubscriberLike {
  readonly isReady: boolean;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** Sharded pub/sub (Redis 7): a Cluster client's subscription follows the channel's shard. */
  sSubscribe?(channel: string, listener: (message: string) => void): Promise<unknown>;
  /** node-redis emits `ready` each time the connection is (re)established, after it resubscribed. */
  on?(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** Checked once: every key of the package lives under this prefix. */
export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length === 0 || prefix.length > 100 || !/^[\x21-\x7e]+$/.test(prefix)) {
    throw new TypeError('passport-game-platform/redis: "prefix" must be 1 to 100 visible ASCII characters');
  }
  return prefix;
}
