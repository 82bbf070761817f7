// The platform emulator in its own process, for the bench: DEFAULT_SEED plus BENCH_MEMBERS players.
// Control over IPC: mint user tokens, count platform calls, set the E2 latency fault.
import diagnosticsChannel from 'node:diagnostics_channel';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import type { IpcOp, PlatformCounts } from '../harness/ipc-protocol.js';
import { BENCH_PLATFORM, benchMemberNo, benchSeed } from '../harness/bench-seed.js';
import { serveControl } from './server-kit.js';

const memberCount = Number(process.env.BENCH_MEMBERS ?? '20000');
// The log is drained often; the bound only matters if draining stalls.
const MAX_LOG_ENTRIES = 500_000;
const DRAIN_EVERY_MS = 200;

const emulator: Emulator = await startEmulator({ seed: benchSeed(memberCount), maxLogEntries: MAX_LOG_ENTRIES });

let counts: PlatformCounts = { E1: 0, E2: 0, E3: 0, other: 0, connections: 0 };
// The emulator is this process's only TCP server: each accepted socket is a new platform connection.
diagnosticsChannel.subscribe('net.server.socket', () => {
  counts.connections += 1;
});

/** Moves the request log into the counters (a copy then a clear, synchronous: nothing is lost). */
function drain(): void {
  const entries = emulator.requests();
  emulator.clearRequests();
  for (const e of entries) {
    if (e.endpoint === 'E1' || e.endpoint === 'E2' || e.endpoint === 'E3') counts[e.endpoint] += 1;
    else counts.other += 1;
  }
}
const drainTimer = setInterval(drain, DRAIN_EVERY_MS);

function mint(count: number, memberOffset: number): { tokens: string[] } {
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const member = benchMemberNo((memberOffset + i) % memberCount);
    tokens.push(emulator.login(member, BENCH_PLATFORM.gameId).access_token);
  }
  return { tokens };
}

function handle(op: IpcOp): unknown {
  switch (op.op) {
    case 'mint':
      return mint(op.count, op.memberOffset);
    case 'counts':
      drain();
      return { ...counts };
    case 'reset-counts':
      drain();
      counts = { E1: 0, E2: 0, E3: 0, other: 0, connections: 0 };
      return { ok: true };
    case 'latency':
      emulator.clearFaults();
      if (op.latencyMs > 0) emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: op.latencyMs, count: -1 });
      return { ok: true };
    default:
      throw new Error(`op ${op.op} is not an emulator op`);
  }
}

serveControl(emulator.port, handle, () => {
  clearInterval(drainTimer);
  void emulator.close();
});
