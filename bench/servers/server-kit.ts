import { createServer } from 'node:http';
import type { RequestListener, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isIpcRequest } from '../harness/ipc-protocol.js';
import type { IpcOp, IpcReply, MemorySample } from '../harness/ipc-protocol.js';

/** Answers one control request; throws to report an error to the orchestrator. */
export type IpcHandler = (op: IpcOp) => unknown;

const SETTLE_SAMPLES = 5;
const SETTLE_GAP_MS = 200;

function gcNow(): boolean {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  return gc !== undefined;
}

/**
 * Process memory after forced full GCs (`--expose-gc`): the heap of the last sample and the
 * smallest RSS of a few samples 200 ms apart (RSS lags behind freed pages and wobbles by tens of
 * MiB between two identical moments; its floor is the comparable figure).
 */
export async function sampleMemory(): Promise<MemorySample> {
  let rss = Number.POSITIVE_INFINITY;
  let last = process.memoryUsage();
  let gcForced = false;
  for (let i = 0; i < SETTLE_SAMPLES; i += 1) {
    if (i > 0) await new Promise((r) => setTimeout(r, SETTLE_GAP_MS));
    gcForced = gcNow();
    last = process.memoryUsage();
    rss = Math.min(rss, last.rss);
  }
  return {
    rssBytes: rss,
    heapUsedBytes: last.heapUsed,
    heapTotalBytes: last.heapTotal,
    externalBytes: last.external,
    arrayBuffersBytes: last.arrayBuffers,
    gcForced,
  };
}

function cpuSample(): { userMicros: number; systemMicros: number } {
  const { user, system } = process.cpuUsage();
  return { userMicros: user, systemMicros: system };
}

function serveIpc(handler: IpcHandler): void {
  process.on('message', (msg: unknown) => {
    if (!isIpcRequest(msg)) return;
    const { id, body } = msg;
    const answer = async (): Promise<unknown> => (body.op === 'memory' ? sampleMemory() : body.op === 'cpu' ? cpuSample() : handler(body));
    answer().then(
      (result) => process.send?.({ id, ok: true, result } satisfies IpcReply),
      (err: unknown) => process.send?.({ id, ok: false, error: err instanceof Error ? err.message : String(err) } satisfies IpcReply),
    );
  });
  // The orchestrator went away (crash, kill -9): never outlive it.
  process.on('disconnect', () => process.exit(0));
}

/** Prints the ready line the orchestrator waits for. */
export function announce(port: number): void {
  process.stdout.write(`BENCH_READY port=${port}\n`);
}

function stopOn(server: Server | null, cleanup: () => void): void {
  const stop = (): void => {
    cleanup();
    server?.closeAllConnections();
    process.exit(0);
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

/**
 * Listens on 127.0.0.1 (a free port), prints the ready line, answers control requests over IPC
 * and exits on SIGTERM/SIGINT or when the orchestrator disconnects.
 */
export async function serveHttp(listener: RequestListener, handler: IpcHandler = unsupported, cleanup = (): void => {}): Promise<void> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog so the cold burst's 1,000 connections all arrive at once.
    server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, () => resolve());
  });
  serveIpc(handler);
  stopOn(server, cleanup);
  announce((server.address() as AddressInfo).port);
}

/** For processes whose HTTP server is not their own (the emulator). */
export function serveControl(port: number, handler: IpcHandler, cleanup: () => void): void {
  serveIpc(handler);
  stopOn(null, cleanup);
  announce(port);
}

function unsupported(op: IpcOp): never {
  throw new Error(`op ${op.op} is not supported by this server`);
}

/** A required environment variable (the orchestrator always sets it). */
export function requireEnv(name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new Error(`bench server: ${name} is not set`);
  return value;
}
