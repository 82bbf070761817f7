import { createClient, createCluster, createSentinel } from 'redis';
import { commandRunner, topologyOf } from '../../lib/redis/redis-commands.js';
import { RedisRevocationBus, RedisVerificationStore } from '../../lib/redis/index.js';
import type { RedisClientLike } from '../../lib/redis/index.js';
import { RecentMarkers, RecentSends } from '../../lib/redis/resend-window.js';

describe('talking to each kind of node-redis client its own way', () => {
  it('tells one server\'s client, a Cluster\'s and a Sentinel\'s apart (no connection needed)', () => {
    expect(topologyOf(createClient({ url: 'redis://127.0.0.1:1' }))).toBe('server');
    expect(topologyOf(createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] }))).toBe('cluster');
    expect(topologyOf(createSentinel({ name: 'm', sentinelRootNodes: [{ host: '127.0.0.1', port: 1 }] }))).toBe('sentinel');
  });

  it('takes a Cluster\'s or a Sentinel\'s client as it is typed, and names the log and channel for it', () => {
    const cluster = createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:1' }] });
    const sentinel = createSentinel({ name: 'm', sentinelRootNodes: [{ host: '127.0.0.1', port: 1 }] });
    const onCluster = new RedisRevocationBus(cluster, cluster.duplicate(), { prefix: 'p:' });
    const onSentinel = new RedisRevocationBus(sentinel, sentinel.duplicate(), { prefix: 'p:' });
    const scope = '0123456789abcdef';
    // A tenant's channel and log share its hash tag on every topology; the unscoped ones are the previous release's.
    expect([onCluster.topology, onCluster.namesFor(scope)]).toEqual(['cluster', { channel: 'p:{0123456789abcdef}:session-end', logKey: 'p:{0123456789abcdef}:session-end-log' }]);
    expect([onSentinel.topology, onSentinel.namesFor(scope)]).toEqual(['sentinel', { channel: 'p:{0123456789abcdef}:session-end', logKey: 'p:{0123456789abcdef}:session-end-log' }]);
    expect([onCluster.channel, onCluster.logKey]).toEqual(['p:session-end', 'p:session-end-log']);
    expect(new RedisVerificationStore(sentinel, { prefix: 'p:' }).prefix).toBe('p:');
  });

  it('sends a raw command with the signature of each kind: (args), (isReadonly, args), (firstKey, isReadonly, args)', async () => {
    const calls: unknown[][] = [];
    const fake = { sendCommand: (...args: unknown[]) => Promise.resolve(calls.push(args)) } as unknown as RedisClientLike;
    await commandRunner(fake, 'server')('k', true, ['TIME']);
    await commandRunner(fake, 'sentinel')('k', true, ['TIME']);
    await commandRunner(fake, 'cluster')('k', false, ['XADD', 'k']);
    expect(calls).toEqual([[['TIME']], [true, ['TIME']], ['k', false, ['XADD', 'k']]]);
  });
});

describe('what an instance writes again after a failover', () => {
  it('keeps revocation markers only (a cache entry written again could outlive a forget), with whole-millisecond lifetimes', () => {
    const markers = new RecentMarkers();
    const digest = 'ab'.repeat(32);
    markers.note(`revoked:${digest}`, '1', 60_000.5);
    markers.note(`scope-1:revoked:${digest}`, '1', 1000);
    markers.note(`E2:${digest}`, '{"m":"1"}', 60_000);
    const due = markers.due();
    expect(due.map((m) => m.key)).toEqual([`revoked:${digest}`, `scope-1:revoked:${digest}`]);
    for (const { ttlMs } of due) expect(Number.isInteger(ttlMs) && ttlMs > 0).toBe(true);
  });

  it('keeps the latest session ends, oldest first, up to its bound', () => {
    const sends = new RecentSends();
    for (let i = 0; i < 1005; i += 1) sends.note(`e${i}`);
    const due = sends.due();
    expect(due).toHaveLength(1000);
    expect([due[0], due[999]]).toEqual(['e5', 'e1004']);
  });
});
