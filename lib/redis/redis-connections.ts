import type { ConnectionOptions } from 'node:tls';
import { createClient, createCluster, createSentinel } from 'redis';
import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';
import { topologyOf } from './redis-commands.js';
import type { RedisTopology } from './redis-commands.js';
import { passwordOf, redactUrl } from './redis-errors.js';

/** A silent command connection is closed (then reconnected) after this long without a byte from Redis. */
export const SILENT_LINK_CLOSE_MS = 3000;
/** The command connection pings Redis this often when idle, so that only a dead link is silent. */
export const IDLE_PING_MS = 1000;
/** A Cluster client asks for the slot map again this soon after a node's connection drops (a master may have moved). */
export const CLUSTER_REFRESH_AFTER_DROP_MS = 300;
/** A Sentinel client asks the sentinels for the master this often besides their change notices. */
export const SENTINEL_SCAN_MS = 2000;

/** Where Redis is: exactly one of `url`, `cluster`, `sentinel` or `client`. */
export interface RedisTarget {
  /** One server: `redis://[user:password@]host:port[/db]` (or `rediss://`). */
  url?: string;
  /**
   * A Cluster: seed nodes, `redis://host:port` (or `rediss://`, TLS to every
   * node). The client learns the other nodes from them. A user and password in
   * the first URL apply to every node unless `username`/`password` are set.
   */
  cluster?: readonly string[];
  /** Sentinel: the sentinels and the name of the master group they watch. */
  sentinel?: {
    /** `host:port` strings or `{ host, port }`. */
    sentinels: ReadonlyArray<string | { host: string; port: number }>;
    masterName: string;
    /** ACL user and password of the sentinels themselves, when they ask for one. */
    sentinelUsername?: string;
    sentinelPassword?: string;
  };
  /**
   * A node-redis client the application built (`createClient`, `createCluster`
   * or `createSentinel`), connected or not: the fleet connects it if needed,
   * subscribes on its `duplicate()` and never closes it. Build it with
   * `disableOfflineQueue: true` so commands fail at once while Redis is away.
   */
  client?: RedisClientLike & { duplicate(): unknown; connect(): Promise<unknown> };
  /** ACL user of the data nodes (Cluster nodes, Sentinel's primary and replicas, or the server). */
  username?: string;
  password?: string;
  /** TLS to the data nodes (and sentinels): `true`, or Node's TLS options (CA, client certificate, servername). `rediss://` turns it on. */
  tls?: boolean | ConnectionOptions;
}

/** The fleet's two clients: commands, and a subscriber that keeps its offline queue (its SUBSCRIBE waits for the connection). */
export interface FleetConnections {
  topology: RedisTopology;
  publisher: RedisClientLike;
  subscriber: RedisSubscriberLike;
  /** Both, as event emitters and for connect/close. */
  owned: ConnectionHandle[];
  /** The app's own client: connected here if it was not, never closed here. */
  borrowed: ConnectionHandle | undefined;
  /** Where Redis is, for log lines (no password). */
  where: string;
  /** Passwords never to print. */
  secrets: string[];
}

/** What the fleet does with any of its clients. */
export interface ConnectionHandle {
  readonly isOpen: boolean;
  connect(): Promise<unknown>;
  /** A Sentinel client's resolves once it is torn down. */
  destroy(): unknown;
  on(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** How long to wait and how to back off. */
export interface LinkTimings {
  connectTimeoutMs: number;
  maxReconnectDelayMs: number;
}

function hostPort(entry: string | { host: string; port: number }): { host: string; port: number } {
  if (typeof entry !== 'string') return { host: entry.host, port: entry.port };
  const match = /^\[?([^\]\s]+?)\]?:(\d{1,5})$/.exec(entry.trim());
  if (match === null) throw new TypeError(`passport-game-platform/redis: sentinel "${entry}" must be host:port`);
  return { host: match[1]!, port: Number(match[2]) };
}

function credentialsOf(url: string): { username?: string; password?: string } {
  try {
    const parsed = new URL(url);
    return {
      ...(parsed.username === '' ? {} : { username: decodeURIComponent(parsed.username) }),
      ...(parsed.password === '' ? {} : { password: decodeURIComponent(parsed.password) }),
    };
  } catch {
    return {};
  }
}

const isRedisUrl = (url: unknown): url is string => typeof url === 'string' && /^rediss?:\/\/\S+$/.test(url);

/** Checks that exactly one target is given; throws a TypeError naming the problem. */
function targetKind(target: RedisTarget): 'url' | 'cluster' | 'sentinel' | 'client' {
  const given = (['url', 'cluster', 'sentinel', 'client'] as const).filter((name) => target[name] !== undefined);
  if (given.length !== 1) {
    throw new TypeError(`passport-game-platform/redis: give exactly one of "url", "cluster", "sentinel" or "client"${given.length > 1 ? ` (got ${given.join(' and ')})` : ''}`);
  }
  const kind = given[0]!;
  if (kind === 'url' && !isRedisUrl(target.url)) throw new TypeError('passport-game-platform/redis: "url" must be a redis:// or rediss:// URL');
  if (kind === 'cluster' && (!Array.isArray(target.cluster) || target.cluster.length === 0 || !target.cluster.every(isRedisUrl))) {
    throw new TypeError('passport-game-platform/redis: "cluster" must list one or more redis:// or rediss:// seed node URLs');
  }
  if (kind === 'sentinel' && (!Array.isArray(target.sentinel?.sentinels) || target.sentinel.sentinels.length === 0 || typeof target.sentinel.masterName !== 'string' || target.sentinel.masterName === '')) {
    throw new TypeError('passport-game-platform/redis: "sentinel" needs "sentinels" (host:port) and "masterName"');
  }
  return kind;
}

/** Builds (does not connect) the fleet's clients for `target`. */
export function openConnections(target: RedisTarget, timings: LinkTimings): FleetConnections {
  const kind = targetKind(target);
  const backoff = (retries: number): number => Math.min(50 * 2 ** Math.min(retries, 10), timings.maxReconnectDelayMs);
  const tlsOptions = typeof target.tls === 'object' ? target.tls : {};
  const tlsOn = (urls: readonly string[]): boolean => target.tls === true || typeof target.tls === 'object' || urls.some((u) => u.startsWith('rediss://'));
  const socketFor = (tls: boolean, silentClose: boolean): Record<string, unknown> => ({
    connectTimeout: timings.connectTimeoutMs,
    reconnectStrategy: backoff,
    // A link that goes silent (no reset, no answer) is closed after a few seconds, so the
    // instance sees Redis down and serves through the platform, instead of answering 503
    // for every unreadable revocation marker until TCP gives up.
    ...(silentClose ? { socketTimeout: SILENT_LINK_CLOSE_MS } : {}),
    ...(tls ? { tls: true, ...tlsOptions } : {}),
  });
  const auth = { ...(target.username === undefined ? {} : { username: target.username }), ...(target.password === undefined ? {} : { password: target.password }) };
  const secrets = [target.password ?? '', target.sentinel?.sentinelPassword ?? ''];
  // Commands fail at once while Redis is away (no offline queue); pings keep an idle link from looking silent.
  const commandOptions = { disableOfflineQueue: true, pingInterval: IDLE_PING_MS };
  const subscriberOptions = { disableOfflineQueue: false, pingInterval: undefined };
  type Any = ConnectionHandle & RedisClientLike & RedisSubscriberLike & { duplicate(options?: object): Any };
  if (kind === 'url') {
    const url = target.url!;
    const client = createClient({ url, ...auth, ...commandOptions, socket: socketFor(tlsOn([url]), true) }) as unknown as Any;
    const subscriber = client.duplicate({ ...subscriberOptions, socket: socketFor(tlsOn([url]), false) });
    return { topology: 'server', publisher: client, subscriber, owned: [client, subscriber], borrowed: undefined, where: redactUrl(url), secrets: [...secrets, passwordOf(url)] };
  }
  if (kind === 'cluster') {
    const urls = target.cluster!;
    const nodeAuth = { ...credentialsOf(urls[0]!), ...auth };
    const tls = tlsOn(urls);
    const build = (extra: object, silentClose: boolean): Any => createCluster({
      rootNodes: urls.map((url) => ({ url })),
      defaults: { ...nodeAuth, ...extra, socket: socketFor(tls, silentClose) },
      topologyRefreshOnReconnectionAttemptStrategy: CLUSTER_REFRESH_AFTER_DROP_MS,
    });
    const client = build(commandOptions, true);
    const subscriber = build(subscriberOptions, false);
    return { topology: 'cluster', publisher: client, subscriber, owned: [client, subscriber], borrowed: undefined, where: `cluster ${urls.map(redactUrl).join(',')}`, secrets: [...secrets, nodeAuth.password ?? '', ...urls.map(passwordOf)] };
  }
  if (kind === 'sentinel') {
    const { sentinels, masterName, sentinelUsername, sentinelPassword } = target.sentinel!;
    const tls = tlsOn([]);
    const build = (extra: object, silentClose: boolean): Any => createSentinel({
      name: masterName,
      sentinelRootNodes: sentinels.map(hostPort),
      nodeClientOptions: { ...auth, ...extra, socket: socketFor(tls, silentClose) },
      sentinelClientOptions: {
        ...(sentinelUsername === undefined ? {} : { username: sentinelUsername }),
        ...(sentinelPassword === undefined ? {} : { password: sentinelPassword }),
        socket: socketFor(tls, false),
      },
      scanInterval: SENTINEL_SCAN_MS,
    });
    const client = build(commandOptions, true);
    const subscriber = build(subscriberOptions, false);
    return { topology: 'sentinel', publisher: client, subscriber, owned: [client, subscriber], borrowed: undefined, where: `sentinel ${masterName} via ${sentinels.map((s) => (typeof s === 'string' ? s : `${s.host}:${s.port}`)).join(',')}`, secrets };
  }
  const client = target.client as unknown as Any;
  const subscriber = client.duplicate();
  const topology = topologyOf(client);
  return { topology, publisher: client, subscriber, owned: [subscriber], borrowed: client, where: `the application's ${topology} client`, secrets };
}
