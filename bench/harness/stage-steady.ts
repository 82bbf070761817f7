import { spawnServer } from './children.js';
import type { ServerProcess } from './children.js';
import { measure, medianOf, runLine } from './measure.js';
import type { LoadShape } from './measure.js';
import { latencyKey } from './results.js';
import { rotation } from './stats.js';
import type { ByLatency, CaseAtLatency, FixedRateResult, RunSummary } from './results.js';
import { serverSpec, STEADY_CASES } from './servers.js';
import type { SteadyCase } from './servers.js';
import type { StageContext } from './stage-context.js';

export type SteadyResults = Record<SteadyCase, ByLatency<CaseAtLatency>>;

/** The pair whose latency is compared at a fixed offered load. */
const FIXED_RATE_CASES = ['baseline', 'ours'] as const;
const FIXED_RATE_S = 3;
/** Unmeasured load right before each measured run (see `LoadShape.primeS`). */
const PRIME_S = 0.5;

/** `rounds` alternations of `cases` (rotated order); a run that no longer fits the time limit is skipped. */
async function alternate<C extends SteadyCase>(
  ctx: StageContext, what: string, cases: readonly C[], servers: Map<SteadyCase, ServerProcess>, tokens: readonly string[], shape: LoadShape,
): Promise<Map<C, RunSummary[]>> {
  const rounds = new Map<C, RunSummary[]>(cases.map((c) => [c, []]));
  for (let r = 0; r < ctx.options.rounds; r += 1) {
    ctx.log(`${what}: round ${r + 1}/${ctx.options.rounds}`);
    for (const c of rotation(cases, r)) {
      if (!ctx.deadline.allows(shape.durationS + ctx.reserveS)) {
        ctx.note(`${what} round ${r + 1} ${c}: skipped (time limit)`);
        continue;
      }
      const s = await measure(ctx, servers.get(c)!, tokens, shape, r + 1);
      rounds.get(c)!.push(s);
      ctx.log(runLine(c, s));
    }
  }
  return rounds;
}

async function startServers(ctx: StageContext): Promise<Map<SteadyCase, ServerProcess>> {
  const started = await Promise.all(STEADY_CASES.map(async (c) => {
    const spec = serverSpec(c, ctx.options, ctx.platform.serverEnv, ctx.profileDir);
    const server = await spawnServer(c, spec.script, spec);
    if (spec.nodeArgs.includes('--cpu-prof')) ctx.log(`  ${c}: pid ${server.pid}, CPU profile CPU.*.${server.pid}.0.*.cpuprofile in ${ctx.profileDir}`);
    return [c, server] as const;
  }));
  return new Map(started);
}

/**
 * unprotected, baseline, ours and ours-cached at each latency: one warm-up per server, then
 * `rounds` closed-loop alternations, medians reported. At 0 ms, baseline and ours are also run at a
 * fixed offered load below capacity, where p99 shows per-request cost rather than queueing.
 */
export async function runSteady(ctx: StageContext): Promise<SteadyResults> {
  const { options, platform } = ctx;
  const results = Object.fromEntries(STEADY_CASES.map((c) => [c, {}])) as SteadyResults;
  const servers = await startServers(ctx);
  try {
    for (const latencyMs of options.latenciesMs) {
      const key = latencyKey(latencyMs);
      await platform.setLatency(latencyMs);
      // One population of players per latency, the same for every case: the warm-up run meets
      // them first (ours-cached fills its cache there; its cold start is kept as `warmup`), the
      // measured rounds are the steady state (entries expire after their TTL and are verified
      // again, as in production).
      const tokens = await platform.mint(options.players);
      const what = `steady state, E2 latency ${latencyMs} ms`;
      ctx.log(`${what}: warm-up`);
      const warmups = new Map<SteadyCase, RunSummary>();
      const warmupShape = { durationS: options.warmupS, connections: options.connections };
      for (const c of STEADY_CASES) warmups.set(c, await measure(ctx, servers.get(c)!, tokens, warmupShape, 0));
      const rounds = await alternate(ctx, what, STEADY_CASES, servers, tokens, { durationS: options.durationS, connections: options.connections, primeS: PRIME_S });
      for (const c of STEADY_CASES) results[c][key] = { median: medianOf(rounds.get(c)!), rounds: rounds.get(c)!, warmup: warmups.get(c)! };
      if (latencyMs !== 0) continue;
      const shape = { durationS: Math.min(options.durationS, FIXED_RATE_S), connections: options.fixedRateConnections, overallRate: options.fixedRate, primeS: PRIME_S };
      const fixed = await alternate(ctx, `fixed rate ${options.fixedRate} req/s, E2 latency 0 ms`, FIXED_RATE_CASES, servers, tokens, shape);
      for (const c of FIXED_RATE_CASES) {
        const entry: FixedRateResult = { ratePerS: options.fixedRate, connections: options.fixedRateConnections, median: medianOf(fixed.get(c)!), rounds: fixed.get(c)! };
        results[c][key]!.fixedRate = entry;
      }
    }
  } finally {
    await platform.setLatency(0);
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }
  return results;
}
