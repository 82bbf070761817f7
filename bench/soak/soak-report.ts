import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { percentile } from './load-loop.js';
import type { FloodTally } from './flood-shapes.js';
import type { LoadTally } from './load-loop.js';
import type { SoakOptions } from './soak-options.js';
import type { AppStats } from './soak-protocol.js';

export const SOAK_RESULT_FILE = fileURLToPath(new URL('../results/soak.json', import.meta.url));

export interface SoakInputs {
  options: SoakOptions;
  elapsedS: number;
  load: LoadTally;
  faults: { total: number; byType: Record<string, number> };
  tokens: { start: number; end: number };
  appStart: AppStats;
  appEnd: AppStats;
  rssMaxBytes: number;
  driverUnhandledRejections: number;
  /** The hostile real-time clients, when they ran. */
  floods?: FloodTally | undefined;
}

/** Heap after GC may grow by this much over a run before the soak calls memory not flat. */
export const FLAT_HEAP_GROWTH_MB = 64;

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const ms = (value: number): number => Math.round(value * 10) / 10;

/** The soak's figures, and whether it passed (no unhandled rejection, no crash, every request answered). */
export function soakReport(i: SoakInputs): Record<string, unknown> & { ok: boolean; problems: string[] } {
  const { load, appStart, appEnd } = i;
  const problems: string[] = [];
  if (appEnd.unhandledRejections > 0) problems.push(`${appEnd.unhandledRejections} unhandled rejections in the app`);
  if (appEnd.uncaughtExceptions > 0) problems.push(`${appEnd.uncaughtExceptions} uncaught exceptions in the app`);
  if (i.driverUnhandledRejections > 0) problems.push(`${i.driverUnhandledRejections} unhandled rejections in the driver`);
  if (load.errors > 0) problems.push(`${load.errors} requests got no HTTP answer`);
  const heapGrowthMb = mb(appEnd.heapUsedBytes - appStart.heapUsedBytes);
  if (heapGrowthMb > FLAT_HEAP_GROWTH_MB) problems.push(`heap after GC grew by ${heapGrowthMb} MB (flat means under ${FLAT_HEAP_GROWTH_MB} MB)`);
  // Buffers live outside the heap: socket reads, queued frames. RSS is not judged: the allocator
  // keeps pages it has freed, so it shows the peak of the floods, not what is still held.
  const externalGrowthMb = mb(appEnd.externalBytes - appStart.externalBytes);
  if (externalGrowthMb > FLAT_HEAP_GROWTH_MB) problems.push(`memory outside the heap grew by ${externalGrowthMb} MB after GC (flat means under ${FLAT_HEAP_GROWTH_MB} MB)`);
  // A flooder that stops reading must be closed by the server, every time.
  for (const shape of ['wsPingFloodUnread', 'socketIoAckFloodUnread']) {
    const tally = i.floods?.byShape[shape];
    if (tally !== undefined && tally.closedByServer < tally.runs) problems.push(`${shape}: the server closed ${tally.closedByServer} of ${tally.runs} flooders`);
  }
  const unexpected = Object.keys(load.byStatus).filter((s) => !['200', '401', '503'].includes(s));
  if (unexpected.length > 0) problems.push(`unexpected statuses: ${unexpected.join(', ')}`);
  return {
    generatedAt: new Date().toISOString(),
    ok: problems.length === 0,
    problems,
    machine: { node: process.version, platform: `${os.platform()} ${os.arch()}`, cpus: os.cpus().length, loadAverage: os.loadavg() },
    options: i.options,
    elapsedS: ms(i.elapsedS),
    requests: { sent: load.sent, answered: load.answered, noAnswer: load.errors, notSentOnTime: load.notSent, rps: ms(load.answered / i.elapsedS) },
    answersByStatus: load.byStatus,
    latencyMs: { p50: ms(percentile(load.latencies, 50)), p90: ms(percentile(load.latencies, 90)), p99: ms(percentile(load.latencies, 99)), max: ms(percentile(load.latencies, 100)) },
    faultsInjected: i.faults,
    distinctTokens: i.tokens,
    app: {
      rssStartMb: mb(appStart.rssBytes), rssEndMb: mb(appEnd.rssBytes), rssMaxMb: mb(i.rssMaxBytes),
      heapUsedAfterGcStartMb: mb(appStart.heapUsedBytes), heapUsedAfterGcEndMb: mb(appEnd.heapUsedBytes), heapGrowthAfterGcMb: heapGrowthMb,
      externalAfterGcStartMb: mb(appStart.externalBytes), externalAfterGcEndMb: mb(appEnd.externalBytes), externalGrowthAfterGcMb: externalGrowthMb,
      unhandledRejections: appEnd.unhandledRejections, uncaughtExceptions: appEnd.uncaughtExceptions,
      platformOperations: appEnd.calls, circuitTransitions: appEnd.circuit, apiTokenProbes: appEnd.probes,
      logLines: appEnd.logLines, lastLogLines: appEnd.lastLogLines,
    },
    driverUnhandledRejections: i.driverUnhandledRejections,
    floods: i.floods ?? null,
  };
}

export async function writeSoakReport(report: object): Promise<void> {
  await mkdir(fileURLToPath(new URL('../results/', import.meta.url)), { recursive: true });
  await writeFile(SOAK_RESULT_FILE, `${JSON.stringify(report, null, 2)}\n`);
}

/** A few lines for the terminal. */
export function soakSummary(r: ReturnType<typeof soakReport>): string {
  const req = r.requests as Record<string, number>;
  const lat = r.latencyMs as Record<string, number>;
  const app = r.app as Record<string, unknown>;
  return [
    `soak ${r.ok ? 'PASSED' : 'FAILED'} after ${r.elapsedS as number} s`,
    `requests: ${req.sent} sent, ${req.answered} answered (${req.rps} /s), ${req.noAnswer} without answer, ${req.notSentOnTime} not sent on time`,
    `answers by status: ${JSON.stringify(r.answersByStatus)}`,
    `latency ms: p50 ${lat.p50}, p90 ${lat.p90}, p99 ${lat.p99}, max ${lat.max}`,
    `faults injected: ${JSON.stringify(r.faultsInjected)}`,
    `distinct tokens: ${JSON.stringify(r.distinctTokens)}`,
    `app RSS MB: start ${app.rssStartMb as number}, end ${app.rssEndMb as number}, max ${app.rssMaxMb as number}; heap after GC MB: ${app.heapUsedAfterGcStartMb as number} -> ${app.heapUsedAfterGcEndMb as number}; outside the heap after GC MB: ${app.externalAfterGcStartMb as number} -> ${app.externalAfterGcEndMb as number}`,
    ...(r.floods === null ? [] : [`hostile real-time clients: ${JSON.stringify(r.floods)}`]),
    `unhandled rejections: app ${app.unhandledRejections as number}, driver ${r.driverUnhandledRejections as number}; circuit: ${JSON.stringify(app.circuitTransitions)}; probes: ${JSON.stringify(app.apiTokenProbes)}`,
    ...(r.problems.length > 0 ? [`problems: ${r.problems.join('; ')}`] : []),
  ].join('\n');
}
