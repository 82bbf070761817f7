import type { RedisClientLike, RedisSubscriberLike } from './redis-like.js';

/** The kind of deployment a node-redis client talks to. */
export type RedisTopology = 'server' | 'cluster' | 'sentinel';

/**
 * What kind of node-redis client this is: a Cluster client has `masters`, a
 * Sentinel client `acquire()`; anything else is one server's client.
 */
export function topologyOf(client: object): RedisTopology {
  if ('masters' in client && 'nodeByAddress' in client) return 'cluster';
  if (typeof (client as { acquire?: unknown }).acquire === 'function') return 'sentinel';
  return 'server';
}

/** Sends one command given as words; `key` routes it on a Cluster (the command runs on the node serving that key's slot). */
export type CommandRunner = (key: string, isReadonly: boolean, args: string[]) => Promise<unknown>;

/** A runner calling `client.sendCommand` with the signature of the client's kind. */
export function commandRunner(client: RedisClientLike, topology: RedisTopology = topologyOf(client)): CommandRunner {
  const send = client.sendCommand.bind(client) as unknown as (...args: unknown[]) => Promise<unknown>;
  switch (topology) {
    case 'cluster':
      return (key, isReadonly, args) => send(key, isReadonly, args);
    case 'sentinel':
      return (_key, isReadonly, args) => send(isReadonly, args);
    default:
      return (_key, _isReadonly, args) => send(args);
  }
}

/**
 * Whether pub/sub goes through shards: on a Cluster, a classic PUBLISH is
 * copied to every node, a sharded one (`SPUBLISH`, Redis 7) only to the
 * channel's shard, whose subscription follows the shard across a failover.
 */
export const usesShardedPubSub = (topology: RedisTopology): boolean => topology === 'cluster';

/** An error reply saying the server does not know the command (a Cluster older than Redis 7 and `SPUBLISH`). */
export function isUnknownCommand(error: unknown): boolean {
  return error instanceof Error && /unknown command/i.test(error.message);
}

/** Publishes on `channel`: sharded where `sharded` says so (the caller falls back when the server lacks it). */
export function publishOn(client: RedisClientLike, run: CommandRunner, channel: string, text: string, sharded: boolean): Promise<unknown> {
  return sharded ? run(channel, false, ['SPUBLISH', channel, text]) : client.publish(channel, text);
}

/** Subscribes to `channel`: sharded where `sharded` says so and the client can. */
export function subscribeTo(subscriber: RedisSubscriberLike, channel: string, listener: (message: string) => void, sharded: boolean): Promise<unknown> {
  return sharded && subscriber.sSubscribe !== undefined ? subscriber.sSubscribe(channel, listener) : subscriber.subscribe(channel, listener);
}

/**
 * Calls `listener` each time one of the client's connections is established
 * again: `ready` on one server or Sentinel (and a Sentinel's change of
 * master), `node-ready` on a Cluster (any node, the new master included)
 * and its `connect` (the slot map known).
 */
export function onReconnect(client: Pick<RedisClientLike, 'on'>, topology: RedisTopology, listener: () => void): void {
  if (topology === 'cluster') {
    client.on?.('node-ready', listener);
    client.on?.('connect', listener); // the Cluster client itself: ready once the slot map is known
    return;
  }
  client.on?.('ready', listener);
  if (topology === 'sentinel') client.on?.('topology-change', listener);
}
