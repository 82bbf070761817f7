import type { ServerProcess } from './children.js';
import type { CpuPerRequest } from './results.js';

/** CPU microseconds used by the server under test, the emulator and this process, between start and stop. */
export interface CpuMeter {
  stop(): Promise<CpuPerRequest>;
}

async function cpuOf(p: ServerProcess | null): Promise<number> {
  if (p === null) return 0;
  const c = await p.call({ op: 'cpu' });
  return c.userMicros + c.systemMicros;
}

function ownCpu(): number {
  const c = process.cpuUsage();
  return c.user + c.system;
}

export async function startCpuMeter(server: ServerProcess | null, emulator: ServerProcess): Promise<CpuMeter> {
  const [s0, e0] = await Promise.all([cpuOf(server), cpuOf(emulator)]);
  const l0 = ownCpu();
  return {
    async stop() {
      const l1 = ownCpu();
      const [s1, e1] = await Promise.all([cpuOf(server), cpuOf(emulator)]);
      return { server: s1 - s0, emulator: e1 - e0, loadGenerator: l1 - l0 };
    },
  };
}
