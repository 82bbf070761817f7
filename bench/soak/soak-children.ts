import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { AppStats } from './soak-protocol.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const children = new Set<ChildProcess>();

/** Kills every child still running (synchronous: safe in an exit handler). */
export function killChildren(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  children.clear();
}

/** A child process ready on 127.0.0.1, with what it printed last. */
export interface Child {
  process: ChildProcess;
  /** What the ready line matched (the URL or port). */
  ready: string;
  output(): string;
  stop(): Promise<void>;
}

/** Starts `node [nodeArgs] --import tsx <script> [args]` and waits for `ready` in its stdout. */
export function startChild(script: string, args: string[], ready: RegExp, options: { env?: Record<string, string>; nodeArgs?: string[] } = {}): Promise<Child> {
  const env = { ...process.env, ...options.env };
  delete env.NODE_OPTIONS;
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', script, ...args], {
    cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  children.add(child);
  let out = '';
  const keep = (chunk: Buffer): void => void (out = (out + chunk.toString('utf8')).slice(-8000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script}: not ready after 30 s\n${out}`)), 30_000);
    const onData = (): void => {
      const match = ready.exec(out);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      resolve({
        process: child,
        ready: match[1] ?? match[0],
        output: () => out,
        stop: () => new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const force = setTimeout(() => child.kill('SIGKILL'), 3000);
          child.once('exit', () => {
            clearTimeout(force);
            children.delete(child);
            done();
          });
          child.kill('SIGTERM');
        }),
      });
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${code}) before it was ready\n${out}`));
    });
  });
}

/** Asks the app process for its stats over IPC (`gc`: collect garbage first, when exposed). */
export function appStats(app: Child, gc = false): Promise<AppStats> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('soak app: no stats within 10 s')), 10_000);
    app.process.once('message', (msg) => {
      clearTimeout(timer);
      resolve(msg as AppStats);
    });
    app.process.send({ op: 'stats', gc });
  });
}
