import { LogThrottle } from '../logging/log-throttle.js';
import { processMonotonic } from '../time/monotonic.js';
import type { Logger } from '../types.js';
import { RedisRevocationBus } from './redis-bus.js';
import { openConnections } from './redis-connections.js';
import type { ConnectionHandle, RedisTarget } from './redis-connections.js';
import type { RedisTopology } from './redis-commands.js';
import { describeRedisError } from './redis-errors.js';
import { checkPrefix } from './redis-like.js';
import { RedisVerificationStore } from './redis-store.js';

export { IDLE_PING_MS, SILENT_LINK_CLOSE_MS } from './redis-connections.js';

/** At most one log line per kind of connection error in this window. */
export const CONNECTION_ERROR_LOG_WINDOW_MS = 60_000;

/** Options of {@link createRedisFleet}: where Redis is (exactly one of `url`, `cluster`, `sentinel`, `client`), and how to use it. */
export interface RedisFleetOptions extends RedisTarget {
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
   * Where connection errors and failed commands go (Redis unreachable,
   * refused authentication, a failover): one warning per kind of error a
   * minute, never a password. Default: `console.warn`.
   */
  logger?: Pick<Logger, 'warn'>;
}

/** A Redis store and bus sharing two connections, ready to hand to `new PlatformClient({ store, revocations })`. */
export interface RedisFleet {
  /** `server`, `cluster` or `sentinel`. */
  readonly topology: RedisTopology;
  store: RedisVerificationStore;
  revocations: RedisRevocationBus;
  /** Resolves once both connections are up and subscribed; never rejects (Redis down at start-up is not fatal). */
  ready(): Promise<void>;
  /** `ready` when Redis answers, else `connecting` (reconnecting by itself) or `down`. */
  health(): { state: 'ready' | 'connecting' | 'down' };
  close(): Promise<void>;
}

/**
 * Connects to Redis for a verification store and a revocation bus: one
 * server (`url`), a Cluster (`cluster`: seed nodes), Sentinel (`sentinel`:
 * the sentinels and the master's name) or a client the application built
 * (`client`), with `username`/`password` (ACL) and `tls` as managed Redis
 * asks. The connections reconnect by themselves (backing off up to
 * `maxReconnectDelayMs`) and follow a failover; while Redis is down, commands
 * fail at once (no offline queue), so verifications go to the platform and
 * revocations hold on the instance that made them. Connection errors are
 * never thrown: read `health()`.
 *
 * @example
 * ```ts
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * import { createRedisFleet } from 'passport-game-platform/redis';
 * const fleet = createRedisFleet({ url: 'redis://localhost:6379', prefix: 'pgp:live:MYGAME:' });
 * // or { cluster: ['redis://10.0.0.1:6379', 'redis://10.0.0.2:6379'], ... }
 * // or { sentinel: { sentinels: ['10.0.0.1:26379'], masterName: 'mymaster' }, ... }
 * const client = new PlatformClient({
 *   ...fromEnv(), cache: { ttlMs: 30_000 }, store: fleet.store, revocations: fleet.revocations,
 * });
 * ```
 */
export function createRedisFleet(options: RedisFleetOptions): RedisFleet {
  const prefix = checkPrefix(options?.prefix);
  const maxDelay = options.maxReconnectDelayMs ?? 2000;
  const links = openConnections(options, { connectTimeoutMs: options.connectTimeoutMs ?? 1000, maxReconnectDelayMs: maxDelay });
  const logger = options.logger ?? { warn: (fields: object, msg?: string) => console.warn(msg, fields) };
  const throttle = new LogThrottle(processMonotonic, CONNECTION_ERROR_LOG_WINDOW_MS);
  // Reconnection is automatic; the error is only reported, once a minute per kind.
  const onError = (error: unknown): void => {
    const text = describeRedisError(error, links.secrets);
    if (throttle.allow(text)) logger.warn({ redis: links.where, error: text }, 'passport-game-platform/redis: Redis is not answering; verifications go to the platform, revocations hold on this instance until it answers');
  };
  for (const c of [...links.owned, ...(links.borrowed === undefined ? [] : [links.borrowed])]) {
    c.on('error', onError);
    if (links.topology === 'cluster') c.on('node-error', onError);
  }
  let closed = false;
  // One server's client retries its first connection by itself; a Cluster's or a Sentinel's
  // gives up when no seed answers: tried again here, backing off, until it opens or we close.
  const connectUntilOpen = async (c: ConnectionHandle): Promise<void> => {
    for (let attempt = 0; !closed; attempt += 1) {
      try {
        await c.connect();
        return;
      } catch (error) {
        onError(error);
        await new Promise((resolve) => setTimeout(resolve, Math.min(50 * 2 ** Math.min(attempt, 10), maxDelay)));
      }
    }
  };
  const connecting = [...links.owned, ...(links.borrowed !== undefined && !links.borrowed.isOpen ? [links.borrowed] : [])];
  const connected = Promise.all(connecting.map(connectUntilOpen)).then(() => undefined);
  const store = new RedisVerificationStore(links.publisher, { prefix, topology: links.topology, ...(options.rollingUpgrade === undefined ? {} : { rollingUpgrade: options.rollingUpgrade }) });
  const revocations = new RedisRevocationBus(links.publisher, links.subscriber, { prefix, topology: links.topology, logger, ...(options.rollingUpgrade === undefined ? {} : { rollingUpgrade: options.rollingUpgrade }) });
  return {
    topology: links.topology,
    store,
    revocations,
    async ready() {
      await connected;
      await revocations.ready();
    },
    health: () => revocations.health(),
    async close() {
      closed = true;
      revocations.close();
      await Promise.all(links.owned.map((c) => (c.isOpen ? c.destroy() : undefined)));
    },
  };
}
