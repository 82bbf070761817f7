import { createCluster } from 'redis';
import { startTestCluster } from '../support/redis-cluster.js';
import { describeTopology } from './topology-scenarios.js';

// One local Cluster (3 masters, 3 replicas) for the file; the failover scenario kills the master of the log's slot.
describeTopology('a Redis Cluster', async () => {
  const cluster = await startTestCluster();
  const raw = createCluster({ rootNodes: cluster.urls.map((url) => ({ url })) });
  raw.on('error', () => undefined);
  await raw.connect();
  return {
    target: { cluster: cluster.urls },
    dataPorts: () => cluster.nodes.filter((n) => n.child !== undefined).map((n) => n.port),
    streamLength: (key) => raw.xLen(key),
    seedUrl: cluster.urls[0]!,
    targetWithSeed: (seed) => ({ cluster: [seed] }),
    appEnv: { REDIS_CLUSTER_URLS: cluster.urls.join(',') },
    appClient: () => createCluster({ rootNodes: cluster.urls.map((url) => ({ url })), defaults: { disableOfflineQueue: true } }),
    failover: async (key) => cluster.killMaster(await cluster.masterOf(key)),
    async stop() {
      raw.destroy();
      await cluster.stop();
    },
  };
});
