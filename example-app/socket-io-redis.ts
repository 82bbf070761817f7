import { createAdapter, createShardedAdapter } from '@socket.io/redis-adapter';
import { createClient, createCluster, createSentinel } from 'redis';
import type { Server as IoServer } from 'socket.io';
import type { RedisLocation } from './fleet-config.js';

/** The adapter's two clients, as the app handles them. */
interface AdapterClient {
  readonly isOpen: boolean;
  on(event: 'error', listener: () => void): unknown;
  connect(): Promise<unknown>;
  destroy(): unknown;
  duplicate(): AdapterClient;
}

function adapterClient(location: RedisLocation): AdapterClient {
  if (location.kind === 'url') return createClient({ url: location.url });
  if (location.kind === 'cluster') return createCluster({ rootNodes: location.urls.map((url) => ({ url })) });
  const sentinelRootNodes = location.sentinels.map((entry) => {
    const at = entry.lastIndexOf(':');
    return { host: entry.slice(0, at).replace(/^\[|\]$/g, ''), port: Number(entry.slice(at + 1)) };
  });
  return createSentinel({ name: location.masterName, sentinelRootNodes });
}

/**
 * Socket.IO broadcasts (io.emit, rooms) reach every instance's sockets through
 * the Redis adapter, on the same Redis as the fleet: on a Cluster the sharded
 * adapter (SPUBLISH, one shard per channel). Returns how to close it.
 */
export function attachRedisAdapter(io: IoServer, location: RedisLocation): () => Promise<void> {
  const pub = adapterClient(location);
  const sub = pub.duplicate();
  for (const c of [pub, sub]) c.on('error', () => {});
  const adapter = (): void => void io.adapter(location.kind === 'cluster' ? createShardedAdapter(pub, sub) : createAdapter(pub, sub));
  const connected = Promise.all([pub.connect(), sub.connect()]);
  // One server's client queues the adapter's SUBSCRIBE until it is connected; a Cluster's or a
  // Sentinel's refuses it: their adapter is attached once connected (broadcasts stay local until then).
  if (location.kind === 'url') adapter();
  void connected.then(() => {
    if (location.kind !== 'url') adapter();
  }, () => {});
  return async () => {
    await Promise.all([pub, sub].map((c) => (c.isOpen ? c.destroy() : undefined)));
  };
}
