// Redis topologies: three instances on one redis-server, on a local Cluster (3 masters, 3 replicas)
// and on a local Sentinel group, all on this machine's loopback: what a cache hit costs on each,
// and how long a revocation made on one instance takes to end the token's sessions on another.
// `npm run bench:redis`; results in bench/results/redis-topologies.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PlatformClient } from '../lib/index.js';
import { startEmulator } from '../lib/emulator/index.js';
import type { Emulator } from '../lib/emulator/index.js';
import { tokenKey } from '../lib/hashing/fingerprint.js';
import { createRedisFleet } from '../lib/redis/index.js';
import type { RedisFleet, RedisTarget } from '../lib/redis/index.js';
import { startTestCluster } from '../spec/support/redis-cluster.js';
import { startTestRedis } from '../spec/support/redis-server.js';
import { startTestSentinel } from '../spec/support/redis-sentinel.js';
import { machineInfo } from './harness/machine.js';
import { hitLatency, percentile } from './scale-out.js';

interface TopologyFigures {
  /** E2 calls for one token verified on each of the three instances, twice. */
  e2CallsForOneToken: number;
  /** A cache hit's verification (the entry and the revocation marker read from Redis), ms. */
  hitLatencyMs: { p50: number; p99: number };
  /** From `revokeUserToken` on A to the token's `session-end` on B, ms. */
  revocationPropagationMs: { p50: number; p99: number; max: number };
}

const SAMPLES = 5000;
const REVOCATIONS = 200;

async function measure(emulator: Emulator, target: RedisTarget, prefix: string): Promise<TopologyFigures> {
  const fleets: RedisFleet[] = [];
  const clients: PlatformClient[] = [];
  try {
    for (let i = 0; i < 3; i += 1) {
      const fleet = createRedisFleet({ ...target, prefix });
      fleets.push(fleet);
      await fleet.ready();
      clients.push(new PlatformClient({
        baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game',
        cache: { ttlMs: 30_000 }, store: fleet.store, revocations: fleet.revocations, storeTimeoutMs: 2000,
      }));
      await fleet.revocations.ready();
    }
    const [a, b] = [clients[0]!, clients[1]!];
    const token = emulator.login('20005061987', 'demo-game').access_token;
    emulator.clearRequests();
    await a.verifyUserToken(token);
    for (const client of [...clients, ...clients]) await client.verifyUserToken(token);
    const e2CallsForOneToken = emulator.requests({ endpoint: 'E2' }).length;
    const hit = await hitLatency(b, token, SAMPLES);

    const times: number[] = [];
    for (let i = 0; i < REVOCATIONS; i += 1) {
      const revoked = emulator.login('20005061987', 'demo-game').access_token;
      const digest = tokenKey(revoked);
      const heard = new Promise<void>((resolve) => {
        const listener = (event: { kind: string; tokenKey?: string }): void => {
          if (event.kind !== 'token' || event.tokenKey !== digest) return;
          b.off('session-end', listener);
          resolve();
        };
        b.on('session-end', listener);
      });
      const started = performance.now();
      await a.revokeUserToken(revoked);
      await heard;
      times.push(performance.now() - started);
    }
    times.sort((x, y) => x - y);
    return {
      e2CallsForOneToken,
      hitLatencyMs: hit,
      revocationPropagationMs: { p50: percentile(times, 50), p99: percentile(times, 99), max: Math.round(times[times.length - 1]! * 1000) / 1000 },
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(fleets.map((f) => f.close()));
  }
}

export async function runRedisTopologies(log: (line: string) => void): Promise<Record<string, unknown>> {
  const machine = await machineInfo();
  const emulator = await startEmulator({ maxLogEntries: 100_000 });
  const [server, cluster, sentinel] = await Promise.all([startTestRedis(['--appendonly', 'no']), startTestCluster(), startTestSentinel()]);
  try {
    const results: Record<string, TopologyFigures> = {};
    const targets: Array<[string, RedisTarget]> = [
      ['server', { url: server.url }],
      ['cluster', { cluster: cluster.urls }],
      ['sentinel', { sentinel: { sentinels: sentinel.sentinels, masterName: sentinel.masterName } }],
    ];
    for (const [name, target] of targets) {
      results[name] = await measure(emulator, target, `bench-${name}:`);
      log(`  ${name.padEnd(8)} ${JSON.stringify(results[name])}`);
    }
    return { machine, samples: SAMPLES, revocations: REVOCATIONS, ...results };
  } finally {
    await Promise.all([server.stop(), cluster.stop(), sentinel.stop()]);
    await emulator.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  runRedisTopologies((line) => void process.stdout.write(`${line}\n`))
    .then((results) => {
      const dir = fileURLToPath(new URL('./results/', import.meta.url));
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}redis-topologies.json`, `${JSON.stringify({ generatedAt: new Date().toISOString(), ...results }, null, 2)}\n`);
      process.stdout.write('results in bench/results/redis-topologies.json\n');
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
