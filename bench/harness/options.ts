/** What one `npm run bench` does, from flags and environment variables (pure). */
export interface BenchOptions {
  quick: boolean;
  /** Seconds per measured autocannon run (`BENCH_DURATION_S`). */
  durationS: number;
  /** Alternations of the steady-state cases per latency (`BENCH_ROUNDS`). */
  rounds: number;
  /** Seconds of unmeasured warm-up per server (JIT, keep-alive sockets). */
  warmupS: number;
  connections: number;
  /** Injected E2 latencies, ms. */
  latenciesMs: number[];
  /** Players (distinct tokens) per steady-state run. */
  players: number;
  /** Offered load (requests/s) and connections of the fixed-rate latency runs (ours vs baseline, 0 ms). */
  fixedRate: number;
  fixedRateConnections: number;
  /** Requests each player sends in a row. */
  burst: number;
  /** Concurrent first requests of the cold-burst case. */
  coldBurstRequests: number;
  /** Requests of the memory case in all (two equal passes), over `memoryTokens` tokens, `memoryBurst` in a row each. */
  memoryRequests: number;
  memoryTokens: number;
  memoryBurst: number;
  cacheTtlMs: number;
  cacheMaxEntries: number;
  /** Hard bound of the whole run, seconds (`BENCH_TIME_LIMIT_S`). */
  timeLimitS: number;
  /** Servers started with `--cpu-prof` (`BENCH_CPU_PROF=ours,baseline`; `sbs-floor`, `sbs-library`, `sbs-example-app` for the side-by-side stage). */
  cpuProfile: string[];
  /**
   * The side-by-side stage: floor, library and the example app as `npm start` runs it, `tokens`
   * valid tokens in rotation, `rounds` alternating runs of `durationS` (`BENCH_SBS_DURATION_S`,
   * `BENCH_SBS_ROUNDS`), each server warmed up once for `warmupS`; `builtApp`
   * (`BENCH_SBS_BUILT_APP=1`) adds the example app on the compiled library.
   */
  sideBySide: { connections: number; tokens: number; durationS: number; rounds: number; warmupS: number; builtApp: boolean };
  /** Stages to run (`BENCH_ONLY=steady,cold-burst,memory,emulator,frameworks,side-by-side,realtime`); default all but `realtime`. */
  only: string[];
}

export const ALL_STAGES = ['emulator', 'steady', 'cold-burst', 'memory', 'frameworks', 'instrumentation', 'scale-out', 'side-by-side', 'realtime'] as const;
/** Stages left out of a run that names none: the real-time section takes minutes of its own (`npm run bench:realtime`). */
export const OPT_IN_STAGES: readonly string[] = ['realtime'];

type Env = Readonly<Record<string, string | undefined>>;

function positiveNumber(env: Env, name: string, fallback: number, integer = true): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name} must be a positive ${integer ? 'integer' : 'number'}, got "${raw}"`);
  }
  return value;
}

function list(env: Env, name: string, allowed: readonly string[] | null): string[] {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return [];
  const items = raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const bad = allowed === null ? undefined : items.find((s) => !allowed.includes(s));
  if (bad !== undefined) throw new Error(`${name}: "${bad}" is not one of ${allowed!.join(', ')}`);
  return items;
}

/** Reads `--quick` and the `BENCH_*` variables; throws naming the bad one. */
export function parseBenchOptions(argv: readonly string[], env: Env): BenchOptions {
  const unknown = argv.find((a) => a !== '--quick');
  if (unknown !== undefined) throw new Error(`unknown argument "${unknown}" (only --quick)`);
  const quick = argv.includes('--quick') || env.BENCH_QUICK === '1';
  return {
    quick,
    durationS: positiveNumber(env, 'BENCH_DURATION_S', quick ? 1 : 4, false),
    rounds: positiveNumber(env, 'BENCH_ROUNDS', quick ? 1 : 3),
    warmupS: positiveNumber(env, 'BENCH_WARMUP_S', quick ? 0.5 : 1.5, false),
    connections: positiveNumber(env, 'BENCH_CONNECTIONS', 50),
    latenciesMs: [0, 5],
    players: 1000,
    fixedRate: positiveNumber(env, 'BENCH_FIXED_RATE', 200),
    fixedRateConnections: 10,
    burst: 5,
    coldBurstRequests: positiveNumber(env, 'BENCH_COLD_BURST', 1000),
    memoryRequests: positiveNumber(env, 'BENCH_MEMORY_REQUESTS', quick ? 20_000 : 200_000),
    memoryTokens: positiveNumber(env, 'BENCH_MEMORY_TOKENS', quick ? 2000 : 20_000),
    memoryBurst: 5,
    cacheTtlMs: 60_000,
    cacheMaxEntries: 10_000,
    timeLimitS: positiveNumber(env, 'BENCH_TIME_LIMIT_S', 900, false),
    cpuProfile: list(env, 'BENCH_CPU_PROF', ['unprotected', 'floor', 'library', 'baseline', 'ours', 'ours-cached', 'emulator', 'sbs-floor', 'sbs-library', 'sbs-example-app', 'sbs-example-app-built']),
    sideBySide: {
      connections: 50,
      tokens: 50,
      durationS: positiveNumber(env, 'BENCH_SBS_DURATION_S', quick ? 2 : 5, false),
      rounds: positiveNumber(env, 'BENCH_SBS_ROUNDS', quick ? 2 : 7),
      warmupS: quick ? 1 : 3,
      builtApp: env.BENCH_SBS_BUILT_APP === '1',
    },
    only: list(env, 'BENCH_ONLY', ALL_STAGES),
  };
}

/** True when `stage` is to run. */
export function runsStage(options: BenchOptions, stage: (typeof ALL_STAGES)[number]): boolean {
  return options.only.length === 0 ? !OPT_IN_STAGES.includes(stage) : options.only.includes(stage);
}
