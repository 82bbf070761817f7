// `npm run bench`: ours vs a hand-written baseline vs an unprotected route, each server in
// its own process on 127.0.0.1, the emulator in another; results in bench/results/latest.json.
// `--quick` for a smoke run; BENCH_DURATION_S, BENCH_ROUNDS, BENCH_ONLY, BENCH_CPU_PROF: see
// harness/options.ts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { runFrameworks } from './frameworks.js';
import { runInstrumentation } from './instrumentation.js';
import { DEFAULT_REALTIME_OPTIONS, runRealtime } from './realtime.js';
import { runScaleOut } from './scale-out.js';
import { killAllChildren } from './harness/children.js';
import { machineInfo } from './harness/machine.js';
import { parseBenchOptions, runsStage } from './harness/options.js';
import type { BenchOptions } from './harness/options.js';
import { startPlatform } from './harness/platform.js';
import { checkTargets, computeRatios, formatReport } from './harness/report.js';
import type { BenchResults } from './harness/results.js';
import { runColdBurst } from './harness/stage-cold-burst.js';
import { Deadline } from './harness/stage-context.js';
import type { StageContext } from './harness/stage-context.js';
import { runEmulatorCheck } from './harness/stage-emulator.js';
import { runMemory } from './harness/stage-memory.js';
import { runSideBySide } from './harness/stage-side-by-side.js';
import { runSteady } from './harness/stage-steady.js';

const RESULTS_DIR = fileURLToPath(new URL('./results/', import.meta.url));
const RESULTS_FILE = `${RESULTS_DIR}latest.json`;
const started = performance.now();
const log = (line: string): void => void process.stdout.write(`${line}\n`);

let options: BenchOptions;
try {
  options = parseBenchOptions(process.argv.slice(2), process.env);
} catch (err) {
  process.stderr.write(`bench: ${(err as Error).message}\n`);
  process.exit(2);
}

const results: BenchResults = {
  generatedAt: new Date().toISOString(),
  complete: false,
  notes: [],
  machine: {},
  options: { ...options },
};

function save(): void {
  results.wallTimeS = Math.round((performance.now() - started) / 100) / 10;
  results.ratios = computeRatios(results, options.latenciesMs);
  results.targets = checkTargets(results);
  mkdirSync(RESULTS_DIR, { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

function abort(reason: string, code: number): never {
  killAllChildren();
  results.notes.push(reason);
  save();
  process.stderr.write(`bench: ${reason}; partial results in ${RESULTS_FILE}\n`);
  process.exit(code);
}

process.on('exit', killAllChildren);
process.once('SIGINT', () => abort('interrupted (SIGINT)', 130));
process.once('SIGTERM', () => abort('terminated (SIGTERM)', 143));
const hardStop = setTimeout(() => abort(`hard time limit of ${options.timeLimitS} s reached`, 1), options.timeLimitS * 1000);

/** Rough seconds each stage needs, for the deadline checks of the stages before it. */
function estimateS(stage: 'side-by-side' | 'cold-burst' | 'memory' | 'frameworks'): number {
  if (!runsStage(options, stage)) return 0;
  if (stage === 'side-by-side') {
    const s = options.sideBySide;
    return 20 + options.latenciesMs.length * (s.builtApp ? 4 : 3) * (s.warmupS + s.rounds * s.durationS);
  }
  if (stage === 'cold-burst') return options.latenciesMs.length * 2 * 4;
  if (stage === 'frameworks') return 10 + 6 * (options.warmupS + options.rounds * options.durationS);
  return 15 + options.memoryRequests / 2000;
}

async function main(): Promise<void> {
  results.machine = await machineInfo();
  const busy = results.machine.cpuBusyBeforeStart;
  log(`bench: node ${process.version}, ${cpus().length} cpus, load ${loadavg().map((v) => v.toFixed(2)).join(' ')}${typeof busy === 'number' ? `, CPUs ${Math.round(busy * 100)} % busy before start (other processes)` : ''}; ${options.quick ? 'quick' : 'full'} run, ${options.durationS} s x ${options.rounds} rounds, ${options.connections} connections`);
  const members = Math.max(options.memoryTokens, options.players, options.coldBurstRequests);
  const emulatorProfile = options.cpuProfile.includes('emulator') ? ['--cpu-prof', '--cpu-prof-dir', RESULTS_DIR] : [];
  const platform = await startPlatform(members, { nodeArgs: emulatorProfile });
  if (emulatorProfile.length > 0) log(`  emulator: pid ${platform.emulator.pid} (CPU profile)`);
  const ctx: StageContext = {
    options,
    platform,
    deadline: new Deadline(options.timeLimitS - 10),
    profileDir: RESULTS_DIR,
    log,
    note: (line) => {
      results.notes.push(line);
      log(`  note: ${line}`);
    },
    reserveS: 0,
  };
  try {
    if (runsStage(options, 'emulator')) {
      log('emulator ceiling (autocannon straight at E2)');
      results.emulator = await runEmulatorCheck(ctx);
      save();
    }
    if (runsStage(options, 'steady')) {
      ctx.reserveS = estimateS('side-by-side') + estimateS('cold-burst') + estimateS('memory') + estimateS('frameworks');
      Object.assign(results, await runSteady(ctx));
      save();
    }
    if (runsStage(options, 'side-by-side')) {
      ctx.reserveS = estimateS('cold-burst') + estimateS('memory') + estimateS('frameworks');
      const s = options.sideBySide;
      log(`side by side: floor, library and the example app as npm start runs it; ${s.connections} connections, ${s.tokens} tokens in rotation, ${s.rounds} alternating rounds of ${s.durationS} s`);
      results['side-by-side'] = await runSideBySide(ctx);
      writeFileSync(`${RESULTS_DIR}side-by-side.json`, `${JSON.stringify({ generatedAt: results.generatedAt, machine: results.machine, loadAverageAfter: loadavg().map((v) => Math.round(v * 100) / 100), sideBySide: results['side-by-side'] }, null, 2)}\n`);
      save();
    }
    if (runsStage(options, 'cold-burst')) {
      ctx.reserveS = estimateS('memory') + estimateS('frameworks');
      log(`cold burst: ${options.coldBurstRequests} concurrent first requests`);
      results['cold-burst'] = await runColdBurst(ctx);
      save();
    }
    if (runsStage(options, 'memory')) {
      ctx.reserveS = estimateS('frameworks');
      log(`memory: ${options.memoryRequests} requests in 2 passes over ${options.memoryTokens} tokens (cache on)`);
      results.memory = await runMemory(ctx);
      save();
    }
    if (runsStage(options, 'frameworks')) {
      ctx.reserveS = 0;
      log('frameworks: Fastify and Express, protected against unprotected (E2 latency 0 ms)');
      results.frameworks = await runFrameworks(ctx);
      writeFileSync(`${RESULTS_DIR}frameworks.json`, `${JSON.stringify({ generatedAt: results.generatedAt, machine: results.machine, options: results.options, frameworks: results.frameworks }, null, 2)}\n`);
    }
    if (runsStage(options, 'instrumentation')) {
      log('instrumentation: verifications with publishing absent and with no channel subscriber (free when nobody listens), then the OpenTelemetry recipe and the Prometheus collector');
      (results as BenchResults & { instrumentation?: unknown }).instrumentation = await runInstrumentation(log, options.quick ? 2 : 5, options.quick);
      save();
    }
    if (runsStage(options, 'scale-out')) {
      log('scale-out: 3 instances, players x 10 requests spread over them: E2 calls with no cache, per-instance caches, shared Redis; cache-hit latency Redis vs in-memory');
      (results as BenchResults & { scaleOut?: unknown }).scaleOut = await runScaleOut(log, options.quick);
      save();
    }
    if (runsStage(options, 'realtime')) {
      const sizes = options.quick ? { ...DEFAULT_REALTIME_OPTIONS, connections: 1_000, tokens: 100, reverifyIntervalMs: 2_000 } : DEFAULT_REALTIME_OPTIONS;
      log(`realtime: ${sizes.connections} Socket.IO connections over ${sizes.tokens} tokens, ours against unauthenticated`);
      results.realtime = await runRealtime(platform, log, sizes);
      save();
    }
    results.complete = results.notes.length === 0;
  } finally {
    await platform.emulator.stop();
  }
  save();
  log(formatReport(results, options.latenciesMs));
  log(`\nwall time ${results.wallTimeS} s; results in ${RESULTS_FILE}`);
}

main().then(() => {
  clearTimeout(hardStop);
}, (err: unknown) => abort(`failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}`, 1));
