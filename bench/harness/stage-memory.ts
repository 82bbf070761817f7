import { spawnServer } from './children.js';
import { runLoad } from './load.js';
import { bearerGet, playerRequests } from './request-mix.js';
import type { MemorySample } from './ipc-protocol.js';
import type { MemoryResult } from './results.js';
import { serverSpec } from './servers.js';
import type { StageContext } from './stage-context.js';
import { growth, round } from './stats.js';

/**
 * `ours` with the result cache, started with `--expose-gc`: `memoryRequests` requests in two equal
 * passes over the same `memoryTokens` players (`memoryBurst` in a row each, so each pass meets
 * every player); heap and RSS are sampled after forced GC at start and after each pass. With more
 * players than cache entries, each pass also exercises eviction.
 */
export async function runMemory(ctx: StageContext): Promise<MemoryResult> {
  const { options, platform } = ctx;
  const tokens = await platform.mint(options.memoryTokens);
  const spec = serverSpec('ours-memory', options, platform.serverEnv, ctx.profileDir);
  const server = await spawnServer('memory ours-cached', spec.script, spec);
  try {
    const start = await server.call({ op: 'memory' });
    const passes: MemoryResult['passes'] = [];
    const samples: MemorySample[] = [];
    for (let pass = 1; pass <= 2; pass += 1) {
      await platform.resetCounts();
      const load = await runLoad({
        url: server.url,
        requests: playerRequests(tokens, options.memoryBurst, bearerGet('/api/me')),
        connections: options.connections,
        amount: Math.round(options.memoryRequests / 2),
      });
      const calls = await platform.counts();
      passes.push({ rps: round(load.rps, 1), p50Ms: round(load.p50Ms, 3), p99Ms: round(load.p99Ms, 3), non2xx: load.non2xx, errors: load.errors, platformCalls: calls });
      const sample = await server.call({ op: 'memory' });
      samples.push(sample);
      ctx.log(`  memory pass ${pass}: ${load.rps.toFixed(0)} req/s, E2 calls ${calls.E2}, heapUsed ${(sample.heapUsedBytes / 2 ** 20).toFixed(1)} MiB, rss ${(sample.rssBytes / 2 ** 20).toFixed(1)} MiB`);
    }
    const [afterPass1, afterPass2] = samples as [MemorySample, MemorySample];
    return {
      requestsPerPass: Math.round(options.memoryRequests / 2),
      distinctTokens: options.memoryTokens,
      requestsInARow: options.memoryBurst,
      cache: { ttlMs: options.cacheTtlMs, maxEntries: options.cacheMaxEntries },
      start,
      afterPass1,
      afterPass2,
      growthPass1ToPass2: {
        heapUsed: round(growth(afterPass1.heapUsedBytes, afterPass2.heapUsedBytes), 4),
        rss: round(growth(afterPass1.rssBytes, afterPass2.rssBytes), 4),
      },
      passes,
    };
  } finally {
    await server.stop();
  }
}
