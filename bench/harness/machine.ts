import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';

/** Busy and idle jiffies of all CPUs (Linux), or null. */
function cpuTimes(): { busy: number; total: number } | null {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    return { busy: total - idle, total };
  } catch {
    return null;
  }
}

/**
 * Node, CPUs and how busy the machine already was (other processes) during `sampleMs` before
 * the bench started: on a shared machine that is the first thing to read next to the numbers.
 */
export async function machineInfo(sampleMs = 1000): Promise<Record<string, unknown>> {
  const before = cpuTimes();
  await new Promise((r) => setTimeout(r, sampleMs));
  const after = cpuTimes();
  const list = cpus();
  const busy = before && after && after.total > before.total ? (after.busy - before.busy) / (after.total - before.total) : null;
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpuCount: list.length,
    cpuModel: list[0]?.model ?? 'unknown',
    totalMemBytes: totalmem(),
    loadAverageAtStart: loadavg().map((v) => Math.round(v * 100) / 100),
    cpuBusyBeforeStart: busy === null ? null : Math.round(busy * 1000) / 1000,
  };
}
