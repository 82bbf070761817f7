import { spawnServer } from './children.js';
import { runLoad } from './load.js';
import { bearerGet, playerRequests } from './request-mix.js';
import { latencyKey } from './results.js';
import type { ByLatency, ColdBurstRun } from './results.js';
import { serverSpec } from './servers.js';
import type { StageContext } from './stage-context.js';

type Variant = 'ours' | 'baseline-no-single-flight';
export type ColdBurstResults = ByLatency<Record<Variant, ColdBurstRun>>;

/**
 * A just-started server (no request served yet, no API token held) gets `coldBurstRequests`
 * concurrent first requests, one per connection, each with its own player's token. Platform
 * calls are counted from before the server starts.
 */
async function burst(ctx: StageContext, variant: Variant): Promise<ColdBurstRun> {
  const { options, platform } = ctx;
  const n = options.coldBurstRequests;
  const tokens = await platform.mint(n);
  await platform.resetCounts();
  const spec = serverSpec(variant, options, platform.serverEnv, ctx.profileDir);
  const server = await spawnServer(`cold ${variant}`, spec.script, spec);
  try {
    const load = await runLoad({
      url: server.url,
      requests: playerRequests(tokens, 1, bearerGet('/api/me')),
      connections: n,
      amount: n,
      timeoutS: 30,
    });
    const calls = await platform.counts();
    return {
      requests: load.responses,
      ok: load.ok,
      non2xx: load.non2xx,
      errors: load.errors,
      timeouts: load.timeouts,
      e1Calls: calls.E1,
      e2Calls: calls.E2,
      p50Ms: load.p50Ms,
      p99Ms: load.p99Ms,
      elapsedS: load.elapsedS,
    };
  } finally {
    await server.stop();
  }
}

export async function runColdBurst(ctx: StageContext): Promise<ColdBurstResults> {
  const results: ColdBurstResults = {};
  const variants: Variant[] = ['ours', 'baseline-no-single-flight'];
  for (const [i, latencyMs] of ctx.options.latenciesMs.entries()) {
    await ctx.platform.setLatency(latencyMs);
    const runs: Partial<Record<Variant, ColdBurstRun>> = {};
    // Alternate which variant goes first.
    for (const variant of i % 2 === 0 ? variants : [...variants].reverse()) {
      runs[variant] = await burst(ctx, variant);
      const r = runs[variant];
      ctx.log(`  cold burst ${latencyMs} ms ${variant.padEnd(26)} E1 calls ${r.e1Calls}  E2 calls ${r.e2Calls}  ok ${r.ok}/${ctx.options.coldBurstRequests}  p99 ${r.p99Ms.toFixed(1)} ms`);
    }
    results[latencyKey(latencyMs)] = runs as Record<Variant, ColdBurstRun>;
  }
  await ctx.platform.setLatency(0);
  return results;
}
