import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { builtLibArgs, ensureBuiltLib } from './built-lib.js';
import { isIpcReply, READY_PATTERN } from './ipc-protocol.js';
import type { IpcAnswers, IpcOp } from './ipc-protocol.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STOP_GRACE_MS = 3000;
const IPC_TIMEOUT_MS = 30_000;

/** A bench server in its own process, ready on 127.0.0.1. */
export interface ServerProcess {
  readonly name: string;
  readonly port: number;
  readonly url: string;
  readonly pid: number;
  call<K extends IpcOp['op']>(op: Extract<IpcOp, { op: K }>): Promise<IpcAnswers[K]>;
  /** SIGTERM, then SIGKILL after a grace period. */
  stop(): Promise<void>;
}

export interface SpawnOptions {
  env?: Record<string, string>;
  /** Extra node flags (`--expose-gc`, `--cpu-prof`...). */
  nodeArgs?: string[];
  readyTimeoutMs?: number;
}

const alive = new Set<ChildProcess>();

/** Kills every child still running (synchronous: safe in an exit handler). */
export function killAllChildren(): void {
  for (const child of alive) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
  alive.clear();
}

function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = { ...process.env, ...extra };
  delete env.NODE_OPTIONS; // the loader is given explicitly; never twice
  return env;
}

function waitReady(child: ChildProcess, name: string, timeoutMs: number, stderr: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => fail(new Error(`${name}: not ready after ${timeoutMs} ms`)), timeoutMs);
    const onData = (chunk: string): void => {
      out += chunk;
      const m = READY_PATTERN.exec(out);
      if (m) {
        cleanup();
        resolve(Number(m[1]));
      }
    };
    const onExit = (code: number | null): void => fail(new Error(`${name}: exited (${code}) before it was ready\n${stderr()}`));
    const cleanup = (): void => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (err: Error): void => {
      cleanup();
      reject(err);
    };
    child.stdout?.setEncoding('utf8').on('data', onData);
    child.once('exit', onExit);
  });
}

function ipcClient(child: ChildProcess, name: string): ServerProcess['call'] {
  let nextId = 1;
  const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  child.on('message', (msg: unknown) => {
    if (!isIpcReply(msg)) return;
    const waiter = pending.get(msg.id);
    if (!waiter) return;
    pending.delete(msg.id);
    clearTimeout(waiter.timer);
    if (msg.ok) waiter.resolve(msg.result);
    else waiter.reject(new Error(`${name}: ${msg.error ?? 'control request failed'}`));
  });
  child.once('exit', () => {
    for (const w of pending.values()) {
      clearTimeout(w.timer);
      w.reject(new Error(`${name}: exited during a control request`));
    }
    pending.clear();
  });
  return (<K extends IpcOp['op']>(op: Extract<IpcOp, { op: K }>) => new Promise<IpcAnswers[K]>((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error(`${name}: no answer to ${op.op} within ${IPC_TIMEOUT_MS} ms`));
    }, IPC_TIMEOUT_MS);
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
    child.send({ id, body: op });
  }));
}

function stopper(child: ChildProcess): () => Promise<void> {
  return () => new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      alive.delete(child);
      resolve();
      return;
    }
    const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
    child.once('exit', () => {
      clearTimeout(force);
      alive.delete(child);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts `bench/servers/<script>` as `node [nodeArgs] <script>` on the compiled library (see
 * built-lib.ts), and waits for its ready line. The child exits by itself if this
 * process goes away (IPC disconnect).
 */
export async function spawnServer(name: string, script: string, options: SpawnOptions = {}): Promise<ServerProcess> {
  ensureBuiltLib();
  const args = [...(options.nodeArgs ?? []), ...builtLibArgs(), `bench/servers/${script}`];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: childEnv(options.env ?? {}),
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  alive.add(child);
  child.once('exit', () => alive.delete(child));
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-8000);
  });
  try {
    const port = await waitReady(child, name, options.readyTimeoutMs ?? 30_000, () => stderr);
    child.stdout?.resume(); // keep draining; nothing more is read
    return { name, port, url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1, call: ipcClient(child, name), stop: stopper(child) };
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
}
