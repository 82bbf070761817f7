/**
 * The bench's control channel between the orchestrator and its server processes (Node IPC, so
 * control never adds load to the HTTP servers being measured).
 */

/** Platform calls seen by the emulator since the last reset, per endpoint. */
export interface PlatformCounts {
  E1: number;
  E2: number;
  E3: number;
  other: number;
  /** New TCP connections the platform accepted (a client that keeps its sockets alive opens few). */
  connections: number;
}

/** `process.memoryUsage()` after forced GC (when the process runs with `--expose-gc`). */
export interface MemorySample {
  rssBytes: number;
  heapUsedBytes: number;
  heapTotalBytes: number;
  externalBytes: number;
  arrayBuffersBytes: number;
  gcForced: boolean;
}

/** What the orchestrator can ask. `mint` and `counts`/`latency` are emulator-only. */
export type IpcOp =
  | { op: 'memory' }
  | { op: 'cpu' }
  | { op: 'mint'; count: number; memberOffset: number }
  | { op: 'counts' }
  | { op: 'reset-counts' }
  | { op: 'latency'; latencyMs: number }
  | { op: 'realtime-stats' }
  | { op: 'realtime-pass'; passes: number };

/** Answer to an {@link IpcOp}, by op. */
export interface IpcAnswers {
  memory: MemorySample;
  /** `process.cpuUsage()` of the whole process, microseconds. */
  cpu: { userMicros: number; systemMicros: number };
  mint: { tokens: string[] };
  counts: PlatformCounts;
  'reset-counts': { ok: true };
  latency: { ok: true };
  'realtime-stats': RealtimeServerStats;
  'realtime-pass': RealtimePassStats;
}

/** A real-time bench server's live connections. */
export interface RealtimeServerStats {
  connections: number;
  tokens: number;
  /** The client's concurrency limit (0: unauthenticated server). */
  maxConcurrentCalls: number;
}

/** One re-verification pass, as the server saw it. */
export interface RealtimePassStats {
  verified: number;
  ended: number;
  failures: number;
  /** E2 calls made between the previous pass's end and this one's. */
  e2Calls: number;
  /** Most E2 calls in flight at once during the pass. */
  maxInFlight: number;
  durationMs: number;
  tokens: number;
}

export interface IpcRequest {
  id: number;
  body: IpcOp;
}

export interface IpcReply {
  id: number;
  ok: boolean;
  result?: unknown;
  error?: string;
}

export function isIpcRequest(msg: unknown): msg is IpcRequest {
  return typeof msg === 'object' && msg !== null && typeof (msg as IpcRequest).id === 'number'
    && typeof (msg as IpcRequest).body === 'object';
}

export function isIpcReply(msg: unknown): msg is IpcReply {
  return typeof msg === 'object' && msg !== null && typeof (msg as IpcReply).id === 'number'
    && typeof (msg as IpcReply).ok === 'boolean';
}

/** The line a server prints on stdout once it listens. */
export const READY_PATTERN = /^BENCH_READY port=(\d+)$/m;
