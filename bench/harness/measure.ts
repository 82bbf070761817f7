import type { ServerProcess } from './children.js';
import { startCpuMeter } from './cpu-meter.js';
import { runLoad } from './load.js';
import { bearerGet, playerRequests } from './request-mix.js';
import { summarize } from './results.js';
import type { MedianSummary, RunSummary } from './results.js';
import type { StageContext } from './stage-context.js';
import { median, round } from './stats.js';

const PATH = '/api/me';
const SETTLE_MS = 100;

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** The load of one run: closed loop (as fast as answered) unless `overallRate` is given. */
export interface LoadShape {
  durationS: number;
  connections: number;
  overallRate?: number;
  /**
   * Seconds of unmeasured load just before the run: the server's platform connections closed while
   * the other cases ran (idle timeouts) are opened again first, so `new conns` counts churn under
   * steady load, not the re-warming after a pause.
   */
  primeS?: number;
}

/** One autocannon run of the player mix at `/api/me`, with platform calls and CPU counted. */
export async function measure(ctx: StageContext, server: ServerProcess, tokens: readonly string[], shape: LoadShape, roundNo: number): Promise<RunSummary> {
  const { options, platform } = ctx;
  const requests = playerRequests(tokens, options.burst, bearerGet(PATH));
  if (shape.primeS !== undefined) {
    await runLoad({
      url: server.url, requests, connections: shape.connections, durationS: shape.primeS,
      ...(shape.overallRate === undefined ? {} : { overallRate: shape.overallRate }),
    });
  }
  await platform.resetCounts();
  const meter = await startCpuMeter(server, platform.emulator);
  const load = await runLoad({
    url: server.url,
    requests,
    connections: shape.connections,
    durationS: shape.durationS,
    ...(shape.overallRate === undefined ? {} : { overallRate: shape.overallRate }),
  });
  const cpu = await meter.stop();
  const calls = await platform.counts();
  await sleep(SETTLE_MS);
  return summarize(roundNo, load, calls, cpu);
}

/** Medians over rounds. */
export function medianOf(rounds: RunSummary[]): MedianSummary {
  return {
    rps: round(median(rounds.map((r) => r.rps)), 1),
    p50Ms: round(median(rounds.map((r) => r.p50Ms)), 3),
    p99Ms: round(median(rounds.map((r) => r.p99Ms)), 3),
    platformCallsPerRequest: round(median(rounds.map((r) => r.platformCallsPerRequest)), 4),
    serverCpuMicrosPerRequest: round(median(rounds.map((r) => r.cpuMicrosPerRequest.server)), 1),
    newConnections: median(rounds.map((r) => r.platformCalls.connections ?? 0)),
  };
}

/** One progress line. */
export function runLine(name: string, s: RunSummary): string {
  const bad = s.non2xx + s.errors + s.timeouts;
  return `  ${name.padEnd(12)} ${s.rps.toFixed(0).padStart(6)} req/s  p50 ${s.p50Ms.toFixed(2)} ms  p99 ${s.p99Ms.toFixed(2)} ms  calls/req ${s.platformCallsPerRequest.toFixed(3)}  server CPU ${s.cpuMicrosPerRequest.server.toFixed(0)} us/req  new conns ${s.platformCalls.connections ?? '-'}${bad ? `  FAILED ${bad}` : ''}`;
}
