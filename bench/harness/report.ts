import { latencyKey } from './results.js';
import type { BenchResults, ByLatency, CaseAtLatency, RunSummary, TargetCheck } from './results.js';
import { formatSideBySide } from './stage-side-by-side.js';
import { STEADY_CASES } from './servers.js';
import type { SteadyCase } from './servers.js';
import { median, ratio, round } from './stats.js';

type RatioEntry = { ofMedians: number; pairedMedian: number; perRound: number[] };

/** a/b of requests/s: of the medians, and paired round by round (same round, adjacent runs). */
export function rpsRatio(a: CaseAtLatency | undefined, b: CaseAtLatency | undefined): RatioEntry {
  if (!a || !b) return { ofMedians: Number.NaN, pairedMedian: Number.NaN, perRound: [] };
  const perRound = sameRound(a, b, (ra, rb) => ratio(ra.rps, rb.rps));
  return { ofMedians: round(ratio(a.median.rps, b.median.rps), 3), pairedMedian: round(median(perRound), 3), perRound };
}

/** `f(a's run, b's run)` for each round both ran (3 decimals). */
function sameRound(a: CaseAtLatency, b: CaseAtLatency, f: (ra: RunSummary, rb: RunSummary) => number): number[] {
  return a.rounds.flatMap((ra) => {
    const rb = b.rounds.find((x) => x.round === ra.round);
    return rb ? [round(f(ra, rb), 3)] : [];
  });
}

/** Median over same-round pairs of `f(a, b)`; NaN when either case is missing. */
export function pairedMedian(a: CaseAtLatency | undefined, b: CaseAtLatency | undefined, f: (ra: RunSummary, rb: RunSummary) => number): number {
  return a && b ? round(median(sameRound(a, b, f)), 3) : Number.NaN;
}

const p99Gap = (ra: RunSummary, rb: RunSummary): number => ra.p99Ms - rb.p99Ms;
const cpuRatio = (ra: RunSummary, rb: RunSummary): number => ratio(ra.cpuMicrosPerRequest.server, rb.cpuMicrosPerRequest.server);
const cpuAdded = (ra: RunSummary, rb: RunSummary): number => ra.cpuMicrosPerRequest.server - rb.cpuMicrosPerRequest.server;

export function computeRatios(r: BenchResults, latenciesMs: readonly number[]): NonNullable<BenchResults['ratios']> {
  const pairs: Array<[string, SteadyCase, SteadyCase]> = [
    ['library/floor', 'library', 'floor'],
    ['ours/floor', 'ours', 'floor'],
    ['ours/baseline', 'ours', 'baseline'],
    ['ours-cached/unprotected', 'ours-cached', 'unprotected'],
  ];
  const out: NonNullable<BenchResults['ratios']> = {};
  for (const [name, a, b] of pairs) {
    if (r[a] === undefined || r[b] === undefined) continue;
    const byLatency: ByLatency<RatioEntry> = {};
    for (const l of latenciesMs) byLatency[latencyKey(l)] = rpsRatio(r[a]?.[latencyKey(l)], r[b]?.[latencyKey(l)]);
    out[name] = byLatency;
  }
  return out;
}

const num = (v: number | undefined): number | null => (v === undefined || !Number.isFinite(v) ? null : v);

function check(name: string, value: number | undefined, target: string, ok: (v: number) => boolean): TargetCheck {
  const v = num(value);
  return { name, value: v, target, met: v !== null && ok(v) };
}

/** The issue's targets, judged on this run. */
export function checkTargets(r: BenchResults): TargetCheck[] {
  const l0 = latencyKey(0);
  const l5 = latencyKey(5);
  const checks: TargetCheck[] = [];
  // A run narrowed by BENCH_ONLY judges only the stages it ran.
  const steady = r.floor !== undefined;
  for (const [l, ms] of steady ? [[l0, 0], [l5, 5]] as const : []) {
    // Same-round pairs: the machine's load drifts between rounds, much less between adjacent runs.
    checks.push(check(`library/floor requests/s at ${ms} ms (paired)`, r.ratios?.['library/floor']?.[l]?.pairedMedian, '>= 0.9', (v) => v >= 0.9));
    checks.push(check(`example app/floor requests/s at ${ms} ms (paired)`, r.ratios?.['ours/floor']?.[l]?.pairedMedian, '>= 0.85', (v) => v >= 0.85));
    checks.push(check(`ours/baseline requests/s at ${ms} ms (paired)`, r.ratios?.['ours/baseline']?.[l]?.pairedMedian, '>= 1.4', (v) => v >= 1.4));
    checks.push(check(`p99 library - p99 floor at ${ms} ms, closed loop (ms, paired)`, pairedMedian(r.library?.[l], r.floor?.[l], p99Gap), '<= 2', (v) => v <= 2));
    checks.push(check(`p99 example app - p99 floor at ${ms} ms, closed loop (ms, paired)`, pairedMedian(r.ours?.[l], r.floor?.[l], p99Gap), '<= 2', (v) => v <= 2));
    checks.push(check(`server CPU per request library/floor at ${ms} ms (paired)`, pairedMedian(r.library?.[l], r.floor?.[l], cpuRatio), '<= 1.15', (v) => v <= 1.15));
    checks.push(check(`server CPU per request example app/floor at ${ms} ms (paired)`, pairedMedian(r.ours?.[l], r.floor?.[l], cpuRatio), '<= 1.15', (v) => v <= 1.15));
    checks.push(check(`server CPU added per request, cache on, Express at ${ms} ms (us, paired)`, pairedMedian(r['ours-cached']?.[l], r.unprotected?.[l], cpuAdded), '<= 30', (v) => v <= 30));
    checks.push(check(`new platform connections ours - baseline at ${ms} ms (per run, median)`, (r.ours?.[l]?.median.newConnections ?? Number.NaN) - (r.baseline?.[l]?.median.newConnections ?? Number.NaN), '<= 0', (v) => v <= 0));
  }
  for (const [key, at] of Object.entries(r['side-by-side']?.byLatency ?? {})) {
    const lib = at.ratios['library/floor'];
    const app = at.ratios['example-app/floor'];
    checks.push(check(`side by side: library/floor requests/s, ${key} (paired)`, lib?.rps, '>= 0.95', (v) => v >= 0.95));
    checks.push(check(`side by side: example app/floor requests/s, ${key} (paired)`, app?.rps, '>= 0.9', (v) => v >= 0.9));
    checks.push(check(`side by side: library/floor p99, ${key} (paired)`, lib?.p99, '<= 1.25', (v) => v <= 1.25));
    checks.push(check(`side by side: example app/floor p99, ${key} (paired)`, app?.p99, '<= 1.25', (v) => v <= 1.25));
    checks.push(check(`side by side: library/floor server CPU per request, ${key} (paired)`, lib?.cpu, '<= 1.15', (v) => v <= 1.15));
    checks.push(check(`side by side: example app/floor server CPU per request, ${key} (paired)`, app?.cpu, '<= 1.15', (v) => v <= 1.15));
    const failed = Object.values(at.cases).reduce((n, c) => n + c.rounds.reduce((m, x) => m + x.failed, 0), 0);
    checks.push(check(`side by side: failed requests, ${key}`, failed, '== 0', (v) => v === 0));
  }
  const fastify = r.frameworks?.ratios.fastify;
  if (fastify?.addedCpuMicrosPerRequestCached !== undefined) {
    checks.push(check('server CPU added per request, cache on, Fastify at 0 ms (us)', fastify.addedCpuMicrosPerRequestCached, '<= 15', (v) => v <= 15));
  }
  if (steady) checks.push(check('ours-cached/unprotected requests/s at 5 ms', r.ratios?.['ours-cached/unprotected']?.[l5]?.ofMedians, '>= 0.7', (v) => v >= 0.7));
  const fixedOurs = r.ours?.[l0]?.fixedRate;
  const fixedBaseline = r.baseline?.[l0]?.fixedRate;
  if (fixedOurs && fixedBaseline) {
    checks.push(check(`p99 ours - p99 baseline at 0 ms, fixed ${fixedOurs.ratePerS} req/s (ms)`, fixedOurs.median.p99Ms - fixedBaseline.median.p99Ms, '<= 1', (v) => v <= 1));
  }
  for (const [key, runs] of Object.entries(r['cold-burst'] ?? {})) {
    checks.push(check(`cold-burst E1 calls, ours, ${key}`, runs.ours.e1Calls, '== 1', (v) => v === 1));
  }
  if (r.memory) {
    checks.push(check('memory heapUsed growth pass 1 -> 2', r.memory.growthPass1ToPass2.heapUsed, '<= 0.10', (v) => v <= 0.1));
    checks.push(check('memory RSS growth pass 1 -> 2', r.memory.growthPass1ToPass2.rss, '<= 0.10', (v) => v <= 0.1));
  }
  let failed = 0;
  for (const c of STEADY_CASES) {
    for (const at of Object.values(r[c] ?? {})) for (const s of at.rounds) failed += s.non2xx + s.errors + s.timeouts;
  }
  if (steady) checks.push(check('failed requests in the steady-state runs', failed, '== 0', (v) => v === 0));
  return checks;
}

const fmt = (v: number | null | undefined, digits: number): string => (v === null || v === undefined || !Number.isFinite(v) ? '-' : v.toFixed(digits));

/** The printed summary: table, ratios, cold burst, memory, targets. */
export function formatReport(r: BenchResults, latenciesMs: readonly number[]): string {
  const lines: string[] = [];
  const busy = r.machine.cpuBusyBeforeStart;
  if (typeof busy === 'number') lines.push('', `machine: ${String(r.machine.cpuCount)} CPUs, ${Math.round(busy * 100)} % busy with other processes just before the run (shared machine: compare medians, ratios and CPU per request, not single runs)`);
  lines.push('', `case           E2 latency   req/s    p50 ms   p99 ms  calls/req  server CPU us/req  new conns   (medians)`);
  for (const l of latenciesMs) {
    const e = r.emulator?.[latencyKey(l)];
    if (e) lines.push(`${'(emulator E2)'.padEnd(15)}${`${l} ms`.padEnd(10)}${fmt(e.rps, 0).padStart(8)}${fmt(e.p50Ms, 2).padStart(9)}${fmt(e.p99Ms, 2).padStart(9)}${fmt(e.platformCallsPerRequest, 3).padStart(11)}${`(emulator ${fmt(e.cpuMicrosPerRequest.emulator, 0)})`.padStart(19)}`);
    for (const c of STEADY_CASES) {
      const m = r[c]?.[latencyKey(l)]?.median;
      if (!m) continue;
      lines.push(`${c.padEnd(15)}${`${l} ms`.padEnd(10)}${fmt(m.rps, 0).padStart(8)}${fmt(m.p50Ms, 2).padStart(9)}${fmt(m.p99Ms, 2).padStart(9)}${fmt(m.platformCallsPerRequest, 3).padStart(11)}${fmt(m.serverCpuMicrosPerRequest, 0).padStart(19)}${fmt(m.newConnections, 0).padStart(11)}`);
    }
  }
  const l0 = latencyKey(0);
  for (const c of ['baseline', 'ours'] as const) {
    const f = r[c]?.[l0]?.fixedRate;
    if (f) lines.push(`${c.padEnd(15)}${'0 ms'.padEnd(10)}${`(fixed ${f.ratePerS}/s)`.padStart(8)}${fmt(f.median.p50Ms, 2).padStart(9)}${fmt(f.median.p99Ms, 2).padStart(9)}${fmt(f.median.platformCallsPerRequest, 3).padStart(11)}${fmt(f.median.serverCpuMicrosPerRequest, 0).padStart(19)}`);
  }
  if (Object.keys(r.ratios ?? {}).length > 0) lines.push('', 'ratios (requests/s; of medians, and median of same-round pairs):');
  for (const [name, byLatency] of Object.entries(r.ratios ?? {})) {
    for (const [key, v] of Object.entries(byLatency)) {
      lines.push(`  ${name.padEnd(25)} ${key.padEnd(14)} ${fmt(v.ofMedians, 3)}  (paired ${fmt(v.pairedMedian, 3)}; rounds ${v.perRound.map((x) => fmt(x, 2)).join(', ')})`);
    }
  }
  if (r['side-by-side']) lines.push(...formatSideBySide(r['side-by-side']));
  if (r['cold-burst']) {
    lines.push('', 'cold burst (concurrent first requests on a just-started server):');
    for (const [key, runs] of Object.entries(r['cold-burst'])) {
      for (const [variant, run] of Object.entries(runs)) {
        lines.push(`  ${key.padEnd(14)} ${variant.padEnd(26)} E1 calls ${String(run.e1Calls).padStart(4)}   E2 calls ${run.e2Calls}   ok ${run.ok}/${run.requests}   p99 ${fmt(run.p99Ms, 1)} ms`);
      }
    }
  }
  if (r.memory) {
    const m = r.memory;
    const mib = (b: number): string => (b / 2 ** 20).toFixed(1);
    lines.push('', `memory (ours-cached, 2 passes of ${m.requestsPerPass} requests over ${m.distinctTokens} tokens, cache ${m.cache.maxEntries} entries / ${m.cache.ttlMs} ms):`);
    lines.push(`  heapUsed MiB: start ${mib(m.start.heapUsedBytes)}, pass 1 ${mib(m.afterPass1.heapUsedBytes)}, pass 2 ${mib(m.afterPass2.heapUsedBytes)} (growth ${fmt(m.growthPass1ToPass2.heapUsed * 100, 1)} %)`);
    lines.push(`  RSS MiB:      start ${mib(m.start.rssBytes)}, pass 1 ${mib(m.afterPass1.rssBytes)}, pass 2 ${mib(m.afterPass2.rssBytes)} (growth ${fmt(m.growthPass1ToPass2.rss * 100, 1)} %)`);
  }
  lines.push('', 'targets:');
  for (const t of r.targets ?? []) lines.push(`  [${t.met ? 'met ' : 'MISS'}] ${t.name}: ${fmt(t.value, 3)} (target ${t.target})`);
  if (r.notes.length > 0) lines.push('', 'notes:', ...r.notes.map((n) => `  - ${n}`));
  return lines.join('\n');
}
