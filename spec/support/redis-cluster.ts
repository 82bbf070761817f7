import { execFile } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createServer } from 'node:net';
import { ended, launchRedisProcess } from './redis-server.js';
import { until } from './until.js';

const run = promisify(execFile);

/** Runs `redis-cli -p <port> <words>` (authenticated with `password`, if any) and returns its output. */
export async function redisCli(port: number, words: readonly string[], password?: string): Promise<string> {
  const env = password === undefined ? process.env : { ...process.env, REDISCLI_AUTH: password };
  const { stdout } = await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...words], { timeout: 30_000, env });
  return stdout;
}

/**
 * A free TCP port on 127.0.0.1 below the range the OS hands out to outgoing connections
 * (32768 and up): a port picked there stays free until the server that was meant for it binds
 * it, however many connections other tests open meanwhile. `taken`: ports already picked.
 */
export async function quietPort(taken: readonly number[] = []): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (taken.includes(port)) continue;
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
}

/** Runs `start` again (up to 3 times) when a port it picked was taken meanwhile by another process. */
export async function retryingTakenPorts<T>(start: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await start();
    } catch (error) {
      if (attempt >= 3 || !String((error as Error).message).includes('Address already in use')) throw error;
    }
  }
}

/** One node of a test cluster or Sentinel group: its port and process (undefined once killed). */
export interface TestNode {
  readonly port: number;
  child: ChildProcess | undefined;
}

/** Starts one redis-server per port with `args`, in `dir`; the nodes that started are stopped if one fails. */
export async function startNodes(ports: readonly number[], argsOf: (port: number) => string[], dir: string, readyText?: string): Promise<TestNode[]> {
  const started = await Promise.allSettled(ports.map((port) => launchRedisProcess(argsOf(port), readyText, dir)));
  const nodes = started.map((s, i) => ({ port: ports[i]!, child: s.status === 'fulfilled' ? s.value : undefined }));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await stopNodes(nodes);
    throw (failed).reason;
  }
  return nodes;
}

/** SIGKILLs every node still running and waits for each to exit. */
export async function stopNodes(nodes: readonly TestNode[]): Promise<void> {
  await Promise.all(nodes.map(async (node) => {
    const child = node.child;
    node.child = undefined;
    if (child === undefined) return;
    child.kill('SIGKILL');
    await ended(child);
  }));
}

/** A private temporary directory, and its removal. */
export async function tempDir(name: string): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), `${name}-`));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** Options every test server gets: loopback only, nothing written to disk but what the mode needs. */
export const TEST_SERVER_ARGS = ['--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'notice'];

/** A local Redis Cluster for tests: 3 masters and 3 replicas, on free ports, in a temporary directory. */
export interface TestCluster {
  /** `redis://127.0.0.1:<port>` of every node (seed nodes), with the password when there is one. */
  readonly urls: string[];
  /** The nodes' password (`requirepass`, also what replicas and redis-cli use), if any. */
  readonly password: string | undefined;
  readonly nodes: TestNode[];
  /** The port of the master serving `key`'s slot now. */
  masterOf(key: string): Promise<number>;
  /** SIGKILLs the master at `port`; `promoted` resolves once one of its replicas serves its slots (cluster state ok). */
  killMaster(port: number): Promise<{ promoted: Promise<void> }>;
  stop(): Promise<void>;
}

interface ClusterNodeLine {
  port: number;
  master: boolean;
  failed: boolean;
  slots: Array<[number, number]>;
}

function parseClusterNodes(text: string): ClusterNodeLine[] {
  return text.trim().split('\n').map((line) => {
    const words = line.trim().split(' ');
    const port = Number(/:(\d+)@/.exec(words[1]!)?.[1]);
    const flags = words[2]!.split(',');
    const slots = words.slice(8).filter((w) => /^\d+(-\d+)?$/.test(w)).map((w) => {
      const [from, to] = w.split('-').map(Number);
      return [from!, to ?? from!] as [number, number];
    });
    return { port, master: flags.includes('master'), failed: flags.includes('fail') || flags.includes('fail?'), slots };
  });
}

/**
 * Starts the cluster (node timeout 1 s, so a replica takes over within seconds) and waits until
 * every slot is served. `password`: every node asks for it (a managed Cluster's credentials).
 */
export function startTestCluster(password?: string): Promise<TestCluster> {
  return retryingTakenPorts(() => startCluster(password));
}

async function startCluster(password: string | undefined): Promise<TestCluster> {
  const auth = password === undefined ? [] : ['--requirepass', password, '--masterauth', password];
  const cli = (port: number, words: readonly string[]): Promise<string> => redisCli(port, words, password);
  const dir = await tempDir('pgp-cluster');
  const picked: number[] = [];
  for (let i = 0; i < 12; i += 1) picked.push(await quietPort(picked));
  const [ports, busPorts] = [picked.slice(0, 6), picked.slice(6)];
  const nodes = await startNodes(ports, (port) => [
    '--port', String(port), '--cluster-port', String(busPorts[ports.indexOf(port)]), ...TEST_SERVER_ARGS,
    '--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${port}.conf`, '--cluster-node-timeout', '1000',
    '--cluster-replica-validity-factor', '0', ...auth,
  ], dir.path).catch(async (error: unknown) => {
    await dir.remove();
    throw error;
  });
  const stop = async (): Promise<void> => {
    await stopNodes(nodes);
    await dir.remove();
  };
  const live = (): TestNode[] => nodes.filter((n) => n.child !== undefined);
  const table = async (): Promise<ClusterNodeLine[]> => parseClusterNodes(await cli(live()[0]!.port, ['CLUSTER', 'NODES']));
  const healthy = async (): Promise<boolean> => {
    for (const node of live()) {
      const info = await cli(node.port, ['CLUSTER', 'INFO']).catch(() => '');
      if (!info.includes('cluster_state:ok')) return false;
    }
    return true;
  };
  try {
    await cli(ports[0]!, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '1', '--cluster-yes']);
    await until(healthy, 30_000, 'the cluster to serve every slot');
  } catch (error) {
    await stop();
    throw error;
  }
  const masterOf = async (key: string): Promise<number> => {
    const slot = Number((await cli(live()[0]!.port, ['CLUSTER', 'KEYSLOT', key])).trim());
    const owner = (await table()).find((n) => n.master && !n.failed && n.slots.some(([from, to]) => slot >= from && slot <= to));
    if (owner === undefined) throw new Error(`no master serves slot ${slot}`);
    return owner.port;
  };
  return {
    urls: ports.map((p) => `redis://${password === undefined ? '' : `:${encodeURIComponent(password)}@`}127.0.0.1:${p}`),
    password,
    nodes,
    masterOf,
    async killMaster(port) {
      const node = nodes.find((n) => n.port === port)!;
      const slots = (await table()).find((n) => n.port === port)!.slots;
      await stopNodes([node]);
      const promoted = until(async () => {
        const now = await table().catch(() => []);
        const taken = now.some((n) => n.port !== port && n.master && !n.failed && n.slots.some(([from]) => from === slots[0]![0]));
        return taken && healthy();
      }, 30_000, 'a replica to take over the killed master\'s slots');
      return { promoted };
    },
    stop,
  };
}
