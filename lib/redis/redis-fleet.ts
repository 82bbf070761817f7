import { createClient } from 'redis';
import { LogThrottle } from '../logging/log-throttle.js';
import { processMonotonic } from '../time/monotonic.js';
import type { Logger } from '../types.js';
import { RedisRevocationBus } from './redis-bus.js';
import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
import { checkPrefix } from './redis-like.js';
import { RedisVerificationStore } from './redis-store.js';

/** A silent command connection is closed (then reconnected) after this long without a byte from Redis. */
export const SILENT_LINK_CLOSE_MS = 3000;
/** The command connection pings Redis this often when idle, so that only a dead link is silent. */
export const IDLE_PING_MS = 1000;

/** At most one log line per kind of connection error in this window. */
export const CONNECTION_ERROR_LOG_WINDOW_MS = 60_000;

/** The URL without its password, for log lines. */
function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(unparsable URL)';
  }
}

/** A short description of a connection error (its code or first line), never the URL's password. */
function describeRedisError(error: unknown, url: string): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message.split('\n', 1)[0]!.slice(0, 200) : 'unknown error';
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // unparsable: nothing to hide beyond what redactUrl does
  }
  const text = typeof code === 'string' ? `${code}: ${message}` : message;
  return password === '' ? text : text.split(password).join('***');
}

/** Options of {@link createRedisFleet}. */
export interface RedisFleetOptions {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url: string;
  /**
   * Prefix of every key and channel, e.g. `pgp:live:MYGAME:`. Each client
   * keeps its entries and events under its own tenant scope (its platform and
   * game) below the prefix, so games and environments sharing a prefix stay
   * apart; a prefix of their own still keeps them apart for a reader of Redis.
   */
  prefix: string;
  /**
   * Also write and read the previous release's unscoped channel and log, so
   * instances of both releases honour each other's revocations and session
   * ends during a rolling upgrade. Default `true`; set `false` once every
   * instance runs this release.
   */
  rollingUpgrade?: boolean;
  /** Longest wait for a connection attempt; default 1000. */
  connectTimeoutMs?: number;
  /** Longest pause between reconnection attempts; default 2000. */
  maxReconnectDelayMs?: number;
  /**
   * Where connection errors go (Redis unreachable, refused authentication):
   * one warning per kind of error a minute, the URL's password never in it.
   * Default: `console.warn`.
   */
  logger?: Pick<Logger, 'warn'>;
}

/** A Redis store and bus sharing two connections, ready to hand to `new PlatformClient({ store, revocations })`. */
export interface RedisFleet {
  store: RedisVerificationStore;
  revocations: RedisRevocationBus;
  /** Resolves once both connections are up and subscribed; never rejects (Redis down at start-up is not fatal). */
  ready(): Promise<void>;
  /** `ready` when Redis answers, else `connecting` (reconnecting by itself) or `down`. */
  health(): { state: 'ready' | 'connecting' | 'down' };
  close(): Promise<void>;
}

/**
 * Connects to Redis for a verification store and a revocation bus. The
 * connections reconnect by themselves (backing off up to
 * `maxReconnectDelayMs`); while Redis is down, commands fail at once (no
 * offline queue), so verifications go to the platform and revocations hold on
 * the instance that made them. Connection errors are never thrown: read
 * `health()`.
 *
 * @example
 * ```ts
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * import { createRedisFleet } from 'passport-game-platform/redis';
 * const fleet = createRedisFleet({ url: 'redis://localhost:6379', prefix: 'pgp:live:MYGAME:' });
 * const client = new PlatformClient({
 *   ...fromEnv(), cache: { ttlMs: 30_000 }, store: fleet.store, revocations: fleet.revocations,
 * });
 * ```
 */
export function createRedisFleet(options: RedisFleetOptions): RedisFleet {
  if (typeof options?.url !== 'string' || !/^rediss?:\/\//.test(options.url)) {
    throw new TypeError('passport-game-platform/redis: "url" must be a redis:// or rediss:// URL');
  }
  const prefix = checkPrefix(options.prefix);
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  const socket = {
    connectTimeout: options.connectTimeoutMs ?? 1000,
    reconnectStrategy: (retries: number) => Math.min(50 * 2 ** Math.min(retries, 10), maxDelay),
  };
  const client = createClient({
    url: options.url,
    disableOfflineQueue: true,
    // A link that goes silent (no reset, no answer) is closed after a few seconds, so the
    // instance sees Redis down and serves through the platform, instead of answering 503
    // for every unreadable revocation marker until TCP gives up. The pings keep an idle
    // connection from looking silent.
    pingInterval: IDLE_PING_MS,
    socket: { ...socket, socketTimeout: SILENT_LINK_CLOSE_MS },
  });
  // The subscriber keeps its offline queue: its SUBSCRIBE waits for the connection.
  const subscriber = client.duplicate({ disableOfflineQueue: false, pingInterval: undefined, socket });
  const logger = options.logger ?? { warn: (fields: object, msg?: string) => console.warn(msg, fields) };
  const throttle = new LogThrottle(processMonotonic, CONNECTION_ERROR_LOG_WINDOW_MS);
  // Reconnection is automatic; the error is only reported, once a minute per kind.
  const onError = (error: unknown): void => {
    const text = describeRedisError(error, options.url);
    if (throttle.allow(text)) logger.warn({ redis: redactUrl(options.url), error: text }, 'passport-game-platform/redis: Redis is not answering; verifications go to the platform, revocations hold on this instance until it answers');
  };
  for (const c of [client, subscriber]) c.on('error', onError);
  const connected = Promise.all([client.connect(), subscriber.connect()]).then(() => undefined, () => undefined);
  // The structural types are the contract: redis 5 and 6 type their clients differently.
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const store = new RedisVerificationStore(client as unknown as RedisClientLike, { prefix });
  // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion
  const revocations = new RedisRevocationBus(client as unknown as RedisClientLike, subscriber as unknown as RedisSubscriberLike, { prefix, ...(options.rollingUpgrade === undefined ? {} : { rollingUpgrade: options.rollingUpgrade }) });
  return {
    store,
    revocations,
    async ready() {
      await connected;
      await revocations.ready();
    },
    health: () => revocations.health(),
    async close() {
      revocations.close();
      for (const c of [client, subscriber]) if (c.isOpen) c.destroy();
    },
  };
}
