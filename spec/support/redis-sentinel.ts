import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { TEST_SERVER_ARGS, quietPort, redisCli, retryingTakenPorts, startNodes, stopNodes, tempDir } from './redis-cluster.js';
import type { TestNode } from './redis-cluster.js';
import { until } from './until.js';

/** The master group's name in the test Sentinel group. */
export const SENTINEL_MASTER = 'pgp-primary';

/** A local Sentinel group for tests: a primary, its replica and 3 sentinels, on free ports, in a temporary directory. */
export interface TestSentinel {
  /** `host:port` of each sentinel. */
  readonly sentinels: Array<{ host: string; port: number }>;
  readonly masterName: string;
  /** The data node (primary or replica) ports. */
  readonly dataNodes: TestNode[];
  /** The port of the primary the sentinels name now. */
  primaryPort(): Promise<number>;
  /** `SENTINEL FAILOVER`; `promoted` resolves once the sentinels name the replica and it answers as the primary. */
  failover(): Promise<{ promoted: Promise<void> }>;
  stop(): Promise<void>;
}

const role = async (port: number): Promise<string> => (await redisCli(port, ['ROLE']).catch(() => '')).split('\n')[0]!.trim();

export function startTestSentinel(): Promise<TestSentinel> {
  return retryingTakenPorts(startSentinelGroup);
}

async function startSentinelGroup(): Promise<TestSentinel> {
  const dir = await tempDir('pgp-sentinel');
  const picked: number[] = [];
  for (let i = 0; i < 5; i += 1) picked.push(await quietPort(picked));
  const [primary, replica, ...sentinelPorts] = picked as [number, number, number, number, number];
  const all: TestNode[] = [];
  const stop = async (): Promise<void> => {
    await stopNodes(all);
    await dir.remove();
  };
  const sentinelAsk = (words: string[]): Promise<string> => redisCli(sentinelPorts[0], ['SENTINEL', ...words]);
  const primaryPort = async (): Promise<number> => Number((await sentinelAsk(['GET-MASTER-ADDR-BY-NAME', SENTINEL_MASTER])).trim().split('\n')[1]);
  try {
    all.push(...await startNodes([primary], (port) => ['--port', String(port), ...TEST_SERVER_ARGS], dir.path));
    all.push(...await startNodes([replica], (port) => ['--port', String(port), ...TEST_SERVER_ARGS, '--replicaof', '127.0.0.1', String(primary)], dir.path));
    await until(async () => (await redisCli(replica, ['INFO', 'replication'])).includes('master_link_status:up'), 20_000, 'the replica to sync');
    // Sentinels learn the replica from the primary's INFO on their first contact.
    for (const port of sentinelPorts) {
      await writeFile(join(dir.path, `sentinel-${port}.conf`), [
        `port ${port}`, 'bind 127.0.0.1', `dir ${dir.path}`,
        `sentinel monitor ${SENTINEL_MASTER} 127.0.0.1 ${primary} 2`,
        `sentinel down-after-milliseconds ${SENTINEL_MASTER} 1000`,
        `sentinel failover-timeout ${SENTINEL_MASTER} 5000`,
        '',
      ].join('\n'));
    }
    all.push(...await startNodes(sentinelPorts, (port) => [join(dir.path, `sentinel-${port}.conf`), '--sentinel'], dir.path, '+monitor master'));
    await until(async () => (await sentinelAsk(['REPLICAS', SENTINEL_MASTER])).includes(String(replica)), 20_000, 'the sentinels to know the replica');
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    sentinels: sentinelPorts.map((port) => ({ host: '127.0.0.1', port })),
    masterName: SENTINEL_MASTER,
    dataNodes: all.slice(0, 2),
    primaryPort,
    async failover() {
      const before = await primaryPort();
      const after = before === primary ? replica : primary;
      await until(async () => (await sentinelAsk(['REPLICAS', SENTINEL_MASTER])).includes(String(after)), 20_000, 'the sentinels to know the replica');
      await sentinelAsk(['FAILOVER', SENTINEL_MASTER]);
      return { promoted: until(async () => (await primaryPort()) === after && (await role(after)) === 'master', 30_000, 'the replica to take over') };
    },
    stop,
  };
}
