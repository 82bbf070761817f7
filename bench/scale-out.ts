// Scale-out: three client instances (one process each in production; here three
// PlatformClients in one process, so the platform call counts are exact) against
// one emulator, with no cache, with per-instance caches and with the shared Redis
// cache; and the latency of a Redis-cached verification against an in-memory one.
// `npm run bench:scale-out` alone, or the `scale-out` stage of `npm run bench`.
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PlatformClient } from '../lib/index.js';
import type { PlatformClientOptions } from '../lib/index.js';
import { startEmulator } from '../lib/emulator/index.js';
import type { Emulator } from '../lib/emulator/index.js';
import { createRedisFleet } from '../lib/redis/index.js';
import type { RedisFleet } from '../lib/redis/index.js';
import { startTestRedis } from '../spec/support/redis-server.js';

export interface ScaleOutResults {
  instances: number;
  players: number;
  requestsPerPlayer: number;
  /** E2 calls for players x requests spread over the instances. */
  e2Calls: { noCache: number; perInstanceCache: number; sharedRedis: number };
  /** A cache hit's verification latency (ms), p50 and p99. */
  hitLatencyMs: { memory: { p50: number; p99: number }; redis: { p50: number; p99: number }; p50DifferenceMs: number };
  targets: { sharedRedisExactlyPlayers: boolean; p50WithinHalfMs: boolean };
}

const INSTANCES = 3;
const CONCURRENT_PLAYERS = 50;

const base = (emulator: Emulator): PlatformClientOptions => ({
  baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game', maxConcurrentCalls: 64,
});

export function percentile(sorted: number[], p: number): number {
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]! * 1000) / 1000;
}

/** Each player sends its requests one after another, spread round-robin over the instances; players run 50 at a time. */
async function spread(emulator: Emulator, clients: PlatformClient[], tokens: string[], perPlayer: number): Promise<number> {
  emulator.clearRequests();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let p = next++; p < tokens.length; p = next++) {
      for (let r = 0; r < perPlayer; r += 1) await clients[(p + r) % clients.length]!.verifyUserToken(tokens[p]!);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_PLAYERS }, worker));
  return emulator.requests({ endpoint: 'E2' }).length;
}

export async function hitLatency(client: PlatformClient, token: string, samples: number): Promise<{ p50: number; p99: number }> {
  await client.verifyUserToken(token);
  for (let i = 0; i < 200; i += 1) await client.verifyUserToken(token); // warm-up
  const times: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const started = performance.now();
    await client.verifyUserToken(token);
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p99: percentile(times, 99) };
}

export async function runScaleOut(log: (line: string) => void, quick = false): Promise<ScaleOutResults> {
  const players = quick ? 200 : 1000;
  const perPlayer = 10;
  const emulator = await startEmulator({ maxLogEntries: 100_000 }); // 10,000 requests and the E1 calls: above the default log size
  const redis = await startTestRedis();
  const fleets: RedisFleet[] = [];
  const clients: PlatformClient[] = [];
  const make = (options: Partial<PlatformClientOptions>): PlatformClient[] => {
    const made = Array.from({ length: INSTANCES }, () => new PlatformClient({ ...base(emulator), ...options }));
    clients.push(...made);
    return made;
  };
  try {
    const tokens = Array.from({ length: players }, () => emulator.login('20005061987', 'demo-game').access_token);
    const noCache = await spread(emulator, make({}), tokens, perPlayer);
    log(`  no cache:             ${noCache} E2 calls for ${players * perPlayer} requests`);
    const perInstanceCache = await spread(emulator, make({ cache: { ttlMs: 60_000 } }), tokens, perPlayer);
    log(`  per-instance caches:  ${perInstanceCache} E2 calls`);
    const shared = Array.from({ length: INSTANCES }, () => createRedisFleet({ url: redis.url, prefix: 'bench:' }));
    fleets.push(...shared);
    await Promise.all(shared.map((f) => f.ready()));
    // Three instances, Redis and the platform share this process and its two cores: a revocation read
    // that waits on a busy event loop past the default 100 ms would answer 503 (fail closed), which
    // this stage, counting platform calls, does not measure.
    const redisClients = shared.map((f) => new PlatformClient({ ...base(emulator), cache: { ttlMs: 60_000 }, store: f.store, revocations: f.revocations, storeTimeoutMs: 2000 }));
    clients.push(...redisClients);
    const sharedRedis = await spread(emulator, redisClients, tokens, perPlayer);
    log(`  shared Redis cache:   ${sharedRedis} E2 calls (goal: ${players})`);

    const samples = quick ? 2000 : 10_000;
    const token = emulator.login('20005061987', 'demo-game').access_token;
    const memory = await hitLatency(make({ cache: { ttlMs: 60_000 } })[0]!, token, samples);
    const onRedis = await hitLatency(redisClients[0]!, token, samples);
    const p50DifferenceMs = Math.round((onRedis.p50 - memory.p50) * 1000) / 1000;
    log(`  cache hit latency:    in-memory p50 ${memory.p50} ms / p99 ${memory.p99} ms; Redis p50 ${onRedis.p50} ms / p99 ${onRedis.p99} ms (p50 +${p50DifferenceMs} ms, goal within 0.5)`);
    return {
      instances: INSTANCES,
      players,
      requestsPerPlayer: perPlayer,
      e2Calls: { noCache, perInstanceCache, sharedRedis },
      hitLatencyMs: { memory, redis: onRedis, p50DifferenceMs },
      targets: { sharedRedisExactlyPlayers: sharedRedis === players, p50WithinHalfMs: p50DifferenceMs <= 0.5 },
    };
  } finally {
    await Promise.all(clients.map((c) => c.close()));
    await Promise.all(fleets.map((f) => f.close()));
    await redis.stop();
    await emulator.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  runScaleOut((line) => void process.stdout.write(`${line}\n`), quick)
    .then((results) => process.stdout.write(`${JSON.stringify(results)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
