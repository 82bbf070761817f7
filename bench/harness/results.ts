import type { PlatformCounts, MemorySample, RealtimePassStats } from './ipc-protocol.js';
import type { LoadResult } from './load.js';

/** One measured autocannon run and the platform calls it caused. */
export interface RunSummary {
  round: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  platformCalls: PlatformCounts;
  /** Platform calls / requests sent (a request cut off at the end of a run still made its call). */
  platformCallsPerRequest: number;
  /**
   * CPU time (user + system, microseconds) per request sent, of the server under test, of the
   * emulator and of the load generator: less sensitive to a noisy machine than requests/s.
   */
  cpuMicrosPerRequest: CpuPerRequest;
}

export interface CpuPerRequest {
  server: number;
  emulator: number;
  loadGenerator: number;
}

export interface MedianSummary {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  platformCallsPerRequest: number;
  serverCpuMicrosPerRequest: number;
  /** New platform connections per run. */
  newConnections: number;
}

/** Medians over the rounds of one case at one latency. */
export interface CaseAtLatency {
  median: MedianSummary;
  rounds: RunSummary[];
  /** The unmeasured warm-up run (round 0): JIT, keep-alive sockets, and the cache's cold start. */
  warmup?: RunSummary;
  /** Baseline and ours at 0 ms only: latency at a fixed offered load below capacity. */
  fixedRate?: FixedRateResult;
}

export interface FixedRateResult {
  ratePerS: number;
  connections: number;
  median: MedianSummary;
  rounds: RunSummary[];
}

/** Keyed `latency_0ms`, `latency_5ms`. */
export type ByLatency<T> = Record<string, T>;

export function latencyKey(latencyMs: number): string {
  return `latency_${latencyMs}ms`;
}

export interface ColdBurstRun {
  requests: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  e1Calls: number;
  e2Calls: number;
  p50Ms: number;
  p99Ms: number;
  elapsedS: number;
}

export interface MemoryResult {
  requestsPerPass: number;
  distinctTokens: number;
  requestsInARow: number;
  cache: { ttlMs: number; maxEntries: number };
  start: MemorySample;
  afterPass1: MemorySample;
  afterPass2: MemorySample;
  growthPass1ToPass2: { heapUsed: number; rss: number };
  passes: Array<{ rps: number; p50Ms: number; p99Ms: number; non2xx: number; errors: number; platformCalls: PlatformCounts }>;
}

export interface TargetCheck {
  name: string;
  value: number | null;
  target: string;
  met: boolean;
}

// What each stage records; the stages fill them in, the report and the charts read them.

// The frameworks stage (bench/frameworks.ts).
export const FRAMEWORK_CASES = [
  'express-unprotected', 'express-protected', 'express-cached', 'fastify-unprotected', 'fastify-protected', 'fastify-cached',
] as const;
export type FrameworkCase = (typeof FRAMEWORK_CASES)[number];

export type Framework = 'express' | 'fastify';

/** Protected against unprotected, for one framework. */
export interface FrameworkRatios {
  /** Requests/s, protected (every request verified by the platform) / unprotected. */
  protected?: number;
  /** Requests/s, protected with the client's result cache on / unprotected. */
  cached?: number;
  /** Server CPU per request added by authentication (protected - unprotected), microseconds. */
  addedCpuMicrosPerRequest?: number;
  /** The same with the result cache on. */
  addedCpuMicrosPerRequestCached?: number;
}

/** Medians per case and the protected/unprotected ratios per framework. */
export interface FrameworksResult {
  latencyMs: 0;
  cases: Partial<Record<FrameworkCase, { median: MedianSummary; rounds: RunSummary[] }>>;
  ratios: Partial<Record<Framework, FrameworkRatios>>;
}

// The real-time run (bench/realtime.ts).
/** Sizes of the real-time run. */
export interface RealtimeBenchOptions {
  connections: number;
  tokens: number;
  /** Re-verification interval of the authenticated server (ms). */
  reverifyIntervalMs: number;
  /** Handshakes started at once by the load generator. */
  openConcurrency: number;
}

export interface RealtimeSide {
  handshakesPerS: number;
  openMs: number;
  heapBeforeBytes: number;
  heapAfterBytes: number;
  heapPerConnectionBytes: number;
  rssPerConnectionBytes: number;
}

export interface RealtimeBenchResult {
  options: RealtimeBenchOptions;
  ours: RealtimeSide;
  unauthenticated: RealtimeSide;
  /** ours / unauthenticated handshakes per second (goal >= 0.75). */
  handshakeRatio: number;
  /** Heap per live connection beyond Socket.IO's own (goal <= 1024 bytes). */
  addedBytesPerConnection: number;
  pass: RealtimePassStats;
  maxConcurrentCalls: number;
  targets: { handshakeRatio: boolean; e2CallsPerPass: boolean; noBurst: boolean; memory: boolean };
}

// The side-by-side stage (harness/stage-side-by-side.ts).
export const SIDE_BY_SIDE_CASES = ['floor', 'library', 'example-app'] as const;
/**
 * `example-app-built` (BENCH_SBS_BUILT_APP=1): the same app with lib/ compiled by tsc, as the
 * library case runs it. The difference to `example-app` is what running the library from its
 * TypeScript sources costs, if anything.
 */
export type SideBySideCase = (typeof SIDE_BY_SIDE_CASES)[number] | 'example-app-built';
/** One measured run. */
export interface SideBySideRun {
  round: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  failed: number;
  /** Server process CPU (user + system, all threads, from /proc) per answered request, µs. */
  cpuMicrosPerRequest: number;
}

export interface SideBySideCaseResult {
  median: { rps: number; p50Ms: number; p99Ms: number; cpuMicrosPerRequest: number };
  rounds: SideBySideRun[];
}

/** Medians of same-round ratios to the floor. */
export interface SideBySideRatios {
  rps: number;
  p99: number;
  cpu: number;
  rpsPerRound: number[];
}

export interface SideBySideAtLatency {
  cases: Partial<Record<SideBySideCase, SideBySideCaseResult>>;
  /** `library/floor` and `example-app/floor`. */
  ratios: Record<string, SideBySideRatios>;
}

export interface SideBySideResult {
  shape: { connections: number; tokens: number; roundS: number; rounds: number; warmupS: number; platform: string; exampleApp: string; cases: string[] };
  byLatency: ByLatency<SideBySideAtLatency>;
}

export interface BenchResults {
  generatedAt: string;
  complete: boolean;
  notes: string[];
  machine: Record<string, unknown>;
  options: Record<string, unknown>;
  emulator?: ByLatency<Omit<RunSummary, 'round'>>;
  unprotected?: ByLatency<CaseAtLatency>;
  floor?: ByLatency<CaseAtLatency>;
  library?: ByLatency<CaseAtLatency>;
  baseline?: ByLatency<CaseAtLatency>;
  ours?: ByLatency<CaseAtLatency>;
  'ours-cached'?: ByLatency<CaseAtLatency>;
  'cold-burst'?: ByLatency<{ ours: ColdBurstRun; 'baseline-no-single-flight': ColdBurstRun }>;
  memory?: MemoryResult;
  /** Fastify's and Express's protected/unprotected ratios (bench/frameworks.ts). */
  frameworks?: FrameworksResult;
  realtime?: RealtimeBenchResult;
  /** Floor, library and the example app as `npm start` runs it, 50 tokens in rotation (harness/stage-side-by-side.ts). */
  'side-by-side'?: SideBySideResult;
  ratios?: Record<string, ByLatency<{ ofMedians: number; pairedMedian: number; perRound: number[] }>>;
  targets?: TargetCheck[];
  wallTimeS?: number;
}

/** A run's summary from its load result and platform-call counts. */
export function summarize(round: number, load: LoadResult, calls: PlatformCounts, cpuMicros: CpuPerRequest): RunSummary {
  const total = calls.E1 + calls.E2 + calls.E3;
  return {
    round,
    rps: load.rps,
    p50Ms: load.p50Ms,
    p99Ms: load.p99Ms,
    meanMs: load.meanMs,
    requests: load.responses,
    non2xx: load.non2xx,
    errors: load.errors,
    timeouts: load.timeouts,
    platformCalls: calls,
    platformCallsPerRequest: load.sent === 0 ? Number.NaN : total / load.sent,
    cpuMicrosPerRequest: {
      server: cpuMicros.server / load.sent,
      emulator: cpuMicros.emulator / load.sent,
      loadGenerator: cpuMicros.loadGenerator / load.sent,
    },
  };
}
