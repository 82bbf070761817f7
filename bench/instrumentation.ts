// Instrumentation cost, in two phases of one process.
// 1. Free when nobody subscribes: a fresh copy of lib/ with nobody subscribed (`none`) against
//    an identical copy whose `hasSubscribers` checks are the constant `false` (`no-publishing`:
//    no check, no message, no trace()), alternated, before anything has ever subscribed in the
//    process (as in an application without telemetry); none / no-publishing should be about 1.00.
// 2. The cost of the recipes: `none` against the OpenTelemetry recipe subscribed (in-memory
//    exporter) and the Prometheus collector subscribed, alternated; `no-publishing` again beside
//    them (a process where something subscribed once runs the unsubscribed path differently).
// Two paths each: the cache-hit path (no network: the channels' cost per verification shows
// undiluted) and the platform path (an E2 call per verification, in-process emulator at 0 ms).
// The median of the rounds is reported.
// Run alone: `npx tsx bench/instrumentation.ts [--quick]` (or BENCH_ONLY=instrumentation npm
// run bench); either way the figures go to bench/results/instrumentation.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import type { PlatformClient } from '../lib/index.js';
import { startEmulator } from '../lib/emulator/index.js';
import { instrumentGamePlatform } from '../lib/opentelemetry/index.js';
import { collectGamePlatformMetrics } from '../lib/prometheus/index.js';
import { buildNoPublish } from './harness/no-publish-build.js';

/** `no-publishing`: the copy without any channel code; `none`: the library, nobody subscribed. */
type Variant = 'no-publishing' | 'none' | 'opentelemetry' | 'prometheus';
const UNSUBSCRIBED = ['no-publishing', 'none'] as const;
const SUBSCRIBED = ['no-publishing', 'none', 'opentelemetry', 'prometheus'] as const;
const RESULTS_FILE = fileURLToPath(new URL('./results/instrumentation.json', import.meta.url));

/** Verifications per second (median of rounds) on the cache-hit and the platform (E2) path. */
interface Rates<V extends string> {
  cachedOpsPerS: Record<V, number>;
  platformOpsPerS: Record<V, number>;
  /** CPU time of this process (client and in-process emulator) per verification, µs: steadier than verif/s on a shared machine. */
  cachedCpuMicrosPerOp: Record<V, number>;
  platformCpuMicrosPerOp: Record<V, number>;
}

export interface InstrumentationResults {
  /** Phase 1, before anything ever subscribed: the library against the copy without publishing. */
  unsubscribed: Rates<(typeof UNSUBSCRIBED)[number]> & {
    rounds: number;
    /** none / no-publishing in verif/s, and in CPU per verification (no-publishing / none): what the checks cost (goal about 1.00). */
    ratio: { cached: number; platform: number; cachedCpu: number; platformCpu: number };
  };
  /** Phase 2: the recipes subscribed, against nobody subscribed (and no publishing). */
  subscribed: Rates<(typeof SUBSCRIBED)[number]> & {
    rounds: number;
    /** Each variant over `none`. */
    cachedRatio: Record<(typeof SUBSCRIBED)[number], number>;
    platformRatio: Record<(typeof SUBSCRIBED)[number], number>;
  };
  /** The checks the no-publishing copy replaced by `false`, and where. */
  noPublishing: { checks: number; files: string[] };
  /** 1-, 5- and 15-minute load averages at the start and end (other processes share the machine). */
  loadAverage: { start: number[]; end: number[] };
}

type Client = Pick<PlatformClient, 'verifyUserToken' | 'ready' | 'close' | 'health'>;

function subscribe(variant: Variant, client: Client): () => void {
  if (variant === 'opentelemetry') {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const stop = instrumentGamePlatform({ tracerProvider: provider });
    // Keep memory flat: spans are dropped as they are exported.
    const drain = setInterval(() => exporter.reset(), 100);
    return () => {
      clearInterval(drain);
      stop();
    };
  }
  if (variant === 'prometheus') return collectGamePlatformMetrics({ register: new Registry(), health: () => client.health() });
  return () => {};
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Sample {
  opsPerS: number;
  cpuMicrosPerOp: number;
}

async function measure(run: () => Promise<number>, variant: Variant, client: Client): Promise<Sample> {
  const stop = subscribe(variant, client);
  try {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const count = await run();
    const used = process.cpuUsage(cpu);
    return { opsPerS: count / ((performance.now() - started) / 1000), cpuMicrosPerOp: (used.user + used.system) / count };
  } finally {
    stop();
  }
}

const round3 = (value: number): number => Math.round(value * 1000) / 1000;

interface Pair {
  cached: Client;
  direct: Client;
}

/** Alternates the variants for `rounds` rounds (each round starting one later), both paths; medians. */
async function phase<V extends Variant>(variants: readonly V[], rounds: number, of: (variant: V) => Pair, runs: {
  cached: (client: Client) => () => Promise<number>;
  platform: (client: Client) => () => Promise<number>;
}): Promise<Rates<V>> {
  const cached = new Map<V, Sample[]>(variants.map((v) => [v, []]));
  const platform = new Map<V, Sample[]>(variants.map((v) => [v, []]));
  for (let round = 0; round < rounds; round += 1) {
    const order = variants.map((_, i) => variants[(i + round) % variants.length]!);
    for (const variant of order) {
      const pair = of(variant);
      cached.get(variant)!.push(await measure(runs.cached(pair.cached), variant, pair.cached));
      platform.get(variant)!.push(await measure(runs.platform(pair.direct), variant, pair.direct));
    }
  }
  const medians = (samples: Map<V, Sample[]>, read: (sample: Sample) => number, digits: number): Record<V, number> =>
    Object.fromEntries(variants.map((v) => [v, Number(median(samples.get(v)!.map(read)).toFixed(digits))])) as Record<V, number>;
  return {
    cachedOpsPerS: medians(cached, (s) => s.opsPerS, 0),
    platformOpsPerS: medians(platform, (s) => s.opsPerS, 0),
    cachedCpuMicrosPerOp: medians(cached, (s) => s.cpuMicrosPerOp, 3),
    platformCpuMicrosPerOp: medians(platform, (s) => s.cpuMicrosPerOp, 1),
  };
}

function table<V extends string>(log: (line: string) => void, variants: readonly V[], rates: Rates<V>, base: V): void {
  log('  variant        cache hit: verif/s ratio  CPU µs/verif    platform E2: verif/s ratio  CPU µs/verif');
  for (const v of variants) {
    const cachedRatio = rates.cachedOpsPerS[v] / rates.cachedOpsPerS[base];
    const platformRatio = rates.platformOpsPerS[v] / rates.platformOpsPerS[base];
    log(`  ${v.padEnd(14)} ${String(rates.cachedOpsPerS[v]).padStart(18)} ${cachedRatio.toFixed(3)} ${rates.cachedCpuMicrosPerOp[v].toFixed(3).padStart(13)}`
      + `    ${String(rates.platformOpsPerS[v]).padStart(20)} ${platformRatio.toFixed(3)} ${rates.platformCpuMicrosPerOp[v].toFixed(1).padStart(13)}`);
  }
}

export async function runInstrumentation(log: (line: string) => void, rounds = 5, quick = false): Promise<InstrumentationResults> {
  const loadStart = loadavg().map(round3);
  const build = buildNoPublish();
  type Library = typeof import('../lib/index.js');
  const published = (await import(build.entries.published)) as Library;
  const stripped = (await import(build.entries.noPublishing)) as Library;
  const emulator = await startEmulator({ host: '127.0.0.1' });
  const config = { baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' };
  const clients = (Build: new (options: ConstructorParameters<typeof PlatformClient>[0]) => Client): Pair => ({
    cached: new Build({ ...config, cache: { ttlMs: 300_000 } }),
    direct: new Build({ ...config }),
  });
  const ours = clients(published.PlatformClient);
  const bare = clients(stripped.PlatformClient);
  const of = (variant: Variant): Pair => (variant === 'no-publishing' ? bare : ours);
  try {
    const token = emulator.login('20005061986', 'demo-game').access_token;
    for (const pair of [ours, bare]) {
      await pair.cached.verifyUserToken(token);
      await pair.direct.ready();
    }
    const cachedOps = quick ? 20_000 : 200_000;
    const platformOps = quick ? 500 : 6000;
    const tokens = Array.from({ length: 50 }, () => emulator.login('20005061986', 'demo-game').access_token);
    const runs = {
      cached: (client: Client) => async (): Promise<number> => {
        for (let i = 0; i < cachedOps; i += 1) await client.verifyUserToken(token);
        return cachedOps;
      },
      // 50 callers in parallel, each with its own token (no sharing of calls).
      platform: (client: Client) => async (): Promise<number> => {
        let left = platformOps;
        await Promise.all(tokens.map(async (t) => {
          while (left > 0) {
            left -= 1;
            await client.verifyUserToken(t);
          }
        }));
        return platformOps;
      },
    };
    await phase(UNSUBSCRIBED, 1, of, runs); // warm-up, not counted
    const unsubscribedRounds = 2 * rounds + 1;
    log(`  1. nothing ever subscribed: copies of lib/, as is (none) and with its ${build.checks} hasSubscribers checks (${build.files.length} files) replaced by false (no-publishing); ${unsubscribedRounds} rounds`);
    const first = await phase(UNSUBSCRIBED, unsubscribedRounds, of, runs);
    table(log, UNSUBSCRIBED, first, 'no-publishing');
    const ratio = {
      cached: round3(first.cachedOpsPerS.none / first.cachedOpsPerS['no-publishing']),
      platform: round3(first.platformOpsPerS.none / first.platformOpsPerS['no-publishing']),
      cachedCpu: round3(first.cachedCpuMicrosPerOp['no-publishing'] / first.cachedCpuMicrosPerOp.none),
      platformCpu: round3(first.platformCpuMicrosPerOp['no-publishing'] / first.platformCpuMicrosPerOp.none),
    };
    log(`  nothing subscribed / no publishing (verif/s; by CPU per verification): cache hit ${ratio.cached.toFixed(3)}; ${ratio.cachedCpu.toFixed(3)}, platform E2 ${ratio.platform.toFixed(3)}; ${ratio.platformCpu.toFixed(3)}`);
    log(`  2. the recipes subscribed, against nothing subscribed (ratio over none); ${rounds} rounds`);
    const second = await phase(SUBSCRIBED, rounds, of, runs);
    table(log, SUBSCRIBED, second, 'none');
    const over = (rates: Record<(typeof SUBSCRIBED)[number], number>): Record<(typeof SUBSCRIBED)[number], number> =>
      Object.fromEntries(SUBSCRIBED.map((v) => [v, round3(rates[v] / rates.none)])) as Record<(typeof SUBSCRIBED)[number], number>;
    const results: InstrumentationResults = {
      unsubscribed: { ...first, rounds: unsubscribedRounds, ratio },
      subscribed: { ...second, rounds, cachedRatio: over(second.cachedOpsPerS), platformRatio: over(second.platformOpsPerS) },
      noPublishing: { checks: build.checks, files: build.files },
      loadAverage: { start: loadStart, end: loadavg().map(round3) },
    };
    log(`  load average ${results.loadAverage.start.join(' ')} -> ${results.loadAverage.end.join(' ')}`);
    mkdirSync(fileURLToPath(new URL('./results/', import.meta.url)), { recursive: true });
    writeFileSync(RESULTS_FILE, `${JSON.stringify({ generatedAt: new Date().toISOString(), node: process.version, quick, ...results }, null, 2)}\n`);
    return results;
  } finally {
    for (const pair of [ours, bare]) {
      await pair.cached.close();
      await pair.direct.close();
    }
    await emulator.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  runInstrumentation((line) => void process.stdout.write(`${line}\n`), quick ? 2 : 5, quick)
    .then((results) => process.stdout.write(`${JSON.stringify(results)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
