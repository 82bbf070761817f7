import { createSentinel } from 'redis';
import { startTestSentinel } from '../support/redis-sentinel.js';
import { describeTopology } from './topology-scenarios.js';

// One local Sentinel group (primary, replica, 3 sentinels) for the file; the failover scenario is SENTINEL FAILOVER.
describeTopology('Redis Sentinel', async () => {
  const group = await startTestSentinel();
  const raw = createSentinel({ name: group.masterName, sentinelRootNodes: group.sentinels });
  raw.on('error', () => undefined);
  await raw.connect();
  return {
    target: { sentinel: { sentinels: group.sentinels.map((s) => `${s.host}:${s.port}`), masterName: group.masterName } },
    dataPorts: () => group.dataNodes.filter((n) => n.child !== undefined).map((n) => n.port),
    adminUrl: (port) => `redis://127.0.0.1:${port}`,
    streamLength: (key) => raw.xLen(key),
    seedUrl: `redis://${group.sentinels[0]!.host}:${group.sentinels[0]!.port}`,
    targetWithSeed: (seed) => ({ sentinel: { sentinels: [new URL(seed).host], masterName: group.masterName } }),
    appEnv: { REDIS_SENTINELS: group.sentinels.map((s) => `${s.host}:${s.port}`).join(','), REDIS_SENTINEL_MASTER: group.masterName },
    appClient: () => createSentinel({ name: group.masterName, sentinelRootNodes: group.sentinels }),
    failover: () => group.failover(),
    async stop() {
      await raw.destroy();
      await group.stop();
    },
  };
});
