/**
 * The few node-redis (`redis` 4 or 5) client methods the store and the bus
 * use, so any client created by `createClient()` fits, whatever its modules.
 */
export interface RedisClientLike {
  readonly isReady: boolean;
  readonly isOpen: boolean;
  get(key: string): Promise<string | null | unknown>;
  set(key: string, value: string, options: { PX: number }): Promise<unknown>;
  del(key: string): Promise<unknown>;
  publish(channel: string, message: string): Promise<unknown>;
  /** Any command as words (the session-end log: `XADD`, `XRANGE`, `PEXPIRE`, `TIME`). */
  sendCommand(args: string[]): Promise<unknown>;
  /** node-redis emits `ready` each time the connection is (re)established. */
  on?(event: 'ready', listener: () => void): unknown;
}

/** A node-redis client in subscriber mode (`client.duplicate()`). */
export interface RedisSubscriberLike {
  readonly isReady: boolean;
  subscribe(channel: string, listener: (message: string) => void): Promise<unknown>;
  unsubscribe(channel: string, listener?: (message: string) => void): Promise<unknown>;
  /** node-redis emits `ready` each time the connection is (re)established, after it resubscribed. */
  on?(event: 'ready', listener: () => void): unknown;
}

/** Checked once: every key of the package lives under this prefix. */
export function checkPrefix(prefix: unknown): string {
  if (typeof prefix !== 'string' || prefix.length === 0 || prefix.length > 100 || !/^[\x21-\x7e]+$/.test(prefix)) {
    throw new TypeError('passport-game-platform/redis: "prefix" must be 1 to 100 visible ASCII characters');
  }
  return prefix;
}
