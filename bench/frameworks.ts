// Frameworks stage of `npm run bench`: Fastify's protected `/api/me` against Fastify's unprotected
// one, next to the same ratio on Express (the example app against the unprotected Express app),
// platform at 0 ms, each server in its own process, rounds alternated, medians reported.
import { spawnServer, type ServerProcess } from './harness/children.js';
import { measure, medianOf, runLine } from './harness/measure.js';
import { FRAMEWORK_CASES } from './harness/results.js';
import type { Framework, FrameworkCase, FrameworkRatios, FrameworksResult, RunSummary } from './harness/results.js';
import { serverSpec } from './harness/servers.js';
import type { StageContext } from './harness/stage-context.js';
import { round, rotation } from './harness/stats.js';

const EXPRESS_KIND = { 'express-unprotected': 'unprotected', 'express-protected': 'ours', 'express-cached': 'ours-cached' } as const;

async function start(ctx: StageContext, c: FrameworkCase): Promise<ServerProcess> {
  const { options, platform, profileDir } = ctx;
  if (c === 'express-unprotected' || c === 'express-protected' || c === 'express-cached') {
    const spec = serverSpec(EXPRESS_KIND[c], options, platform.serverEnv, profileDir);
    return spawnServer(c, spec.script, { ...spec, nodeArgs: [] });
  }
  const cache: Record<string, string> = c === 'fastify-cached' ? { BENCH_CACHE_TTL_MS: String(options.cacheTtlMs), BENCH_CACHE_MAX_ENTRIES: String(options.cacheMaxEntries) } : {};
  return spawnServer(c, 'fastify-server.ts', {
    env: { ...platform.serverEnv, ...cache, BENCH_FASTIFY_PROTECTED: c === 'fastify-unprotected' ? '0' : '1' },
  });
}

function ratiosOf(result: FrameworksResult, framework: Framework): FrameworkRatios {
  const open = result.cases[`${framework}-unprotected`]?.median;
  const out: FrameworkRatios = {};
  if (open === undefined) return out;
  const verified = result.cases[`${framework}-protected`]?.median;
  const cached = result.cases[`${framework}-cached`]?.median;
  if (verified) {
    out.protected = round(verified.rps / open.rps, 3);
    out.addedCpuMicrosPerRequest = round(verified.serverCpuMicrosPerRequest - open.serverCpuMicrosPerRequest, 0);
  }
  if (cached) {
    out.cached = round(cached.rps / open.rps, 3);
    out.addedCpuMicrosPerRequestCached = round(cached.serverCpuMicrosPerRequest - open.serverCpuMicrosPerRequest, 0);
  }
  return out;
}

/** Runs the four servers in alternated rounds at 0 ms platform latency. */
export async function runFrameworks(ctx: StageContext): Promise<FrameworksResult> {
  const { options, platform } = ctx;
  const servers = new Map<FrameworkCase, ServerProcess>();
  const result: FrameworksResult = { latencyMs: 0, cases: {}, ratios: {} };
  try {
    for (const c of FRAMEWORK_CASES) servers.set(c, await start(ctx, c));
    await platform.setLatency(0);
    const tokens = await platform.mint(options.players);
    const shape = { durationS: options.durationS, connections: options.connections };
    for (const c of FRAMEWORK_CASES) await measure(ctx, servers.get(c)!, tokens, { ...shape, durationS: options.warmupS }, 0);
    const rounds = new Map<FrameworkCase, RunSummary[]>(FRAMEWORK_CASES.map((c) => [c, []]));
    for (let r = 0; r < options.rounds; r += 1) {
      ctx.log(`frameworks: round ${r + 1}/${options.rounds}`);
      for (const c of rotation(FRAMEWORK_CASES, r)) {
        if (!ctx.deadline.allows(shape.durationS + ctx.reserveS)) {
          ctx.note(`frameworks round ${r + 1} ${c}: skipped (time limit)`);
          continue;
        }
        const s = await measure(ctx, servers.get(c)!, tokens, shape, r + 1);
        rounds.get(c)!.push(s);
        ctx.log(runLine(c, s));
      }
    }
    for (const c of FRAMEWORK_CASES) {
      const runs = rounds.get(c)!;
      if (runs.length > 0) result.cases[c] = { median: medianOf(runs), rounds: runs };
    }
    for (const framework of ['express', 'fastify'] as const) {
      const r = (result.ratios[framework] = ratiosOf(result, framework));
      ctx.log(`frameworks: ${framework}: protected/unprotected req/s ${r.protected ?? '-'} (cache on: ${r.cached ?? '-'}); added server CPU ${r.addedCpuMicrosPerRequest ?? '-'} us/req (cache on: ${r.addedCpuMicrosPerRequestCached ?? '-'})`);
    }
  } finally {
    await Promise.all([...servers.values()].map((s) => s.stop()));
  }
  return result;
}
