import { createCluster } from 'redis';
import { startTestCluster } from '../support/redis-cluster.js';
import { describeTopology } from './topology-scenarios.js';

/** Every node asks for it, as a managed Cluster would: the seed URLs carry it to every node. */
const PASSWORD = 'cluster-secret-7';

// One local Cluster (3 masters, 3 replicas) for the file; the failover scenario kills the master of the log's slot.
describeTopology('a Redis Cluster', async () => {
  const cluster = await startTestCluster(PASSWORD);
  const own = (): ReturnType<typeof createCluster> => createCluster({
    rootNodes: cluster.urls.map((url) => ({ url })), defaults: { password: PASSWORD, disableOfflineQueue: true },
  });
  const raw = own();
  raw.on('error', () => undefined);
  await raw.connect();
  return {
    target: { cluster: cluster.urls },
    dataPorts: () => cluster.nodes.filter((n) => n.child !== undefined).map((n) => n.port),
    adminUrl: (port) => `redis://:${PASSWORD}@127.0.0.1:${port}`,
    streamLength: (key) => raw.xLen(key),
    seedUrl: cluster.urls[0]!,
    targetWithSeed: (seed) => ({ cluster: [seed], password: PASSWORD }),
    appEnv: { REDIS_CLUSTER_URLS: cluster.urls.join(',') },
    appClient: own,
    failover: async (key) => cluster.killMaster(await cluster.masterOf(key)),
    async stop() {
      raw.destroy();
      await cluster.stop();
    },
  };
});
