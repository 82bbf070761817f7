import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** What `npm start` gives node, the script last: its script ends `exec node <arguments>`. */
export function startScriptArgs(): string[] {
  const start = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start;
  const args = /exec node (.+)$/.exec(start)?.[1];
  if (args === undefined) throw new Error(`npm start: no "exec node <arguments>" in ${start}`);
  return args.split(' ');
}

/** The example app run as `npm start` does (the node arguments of its script), output captured. */
export interface AppProcess {
  child: ChildProcessWithoutNullStreams;
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` in stdout, or rejects after `timeoutMs` or on exit. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code, or rejects after `timeoutMs`. */
  exited(timeoutMs?: number): Promise<number | null>;
  stop(): Promise<number | null>;
}

const PLATFORM_VARS = /^(PLATFORM_|ADMIN_MEMBER_NOS$|PORT$|WEB_)/;

/** Starts the app with a clean environment (no PLATFORM_* from the caller's shell) plus `env`. */
export function startAppProcess(env: Record<string, string>): AppProcess {
  const base = Object.fromEntries(Object.entries(process.env).filter(([name]) => !PLATFORM_VARS.test(name)));
  delete base.NODE_OPTIONS; // Jest's --experimental-vm-modules is not the app's
  // One process, signalled directly: npm would be a second process to relay to.
  const child = spawn(process.execPath, startScriptArgs(), { cwd: process.cwd(), env: { ...base, ...env }, stdio: 'pipe' });
  let out = '';
  let err = '';
  let exitCode: number | null | undefined;
  const listeners = new Set<() => void>();
  const notify = (): void => listeners.forEach((l) => l());
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; notify(); });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => { err += chunk; notify(); });
  child.on('exit', (code) => { exitCode = code; notify(); });

  function waitFor<T>(check: () => T | undefined, timeoutMs: number, what: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const attempt = (): void => {
        let value: T | undefined;
        try {
          value = check();
        } catch (error) {
          done();
          reject(error);
          return;
        }
        if (value !== undefined) {
          done();
          resolve(value);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`timed out after ${timeoutMs} ms waiting for ${what}\nstdout:\n${out}\nstderr:\n${err}`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        listeners.delete(attempt);
      };
      listeners.add(attempt);
      attempt();
    });
  }

  const app: AppProcess = {
    child,
    stdout: () => out,
    stderr: () => err,
    waitForOutput: (pattern, timeoutMs = 30_000) => waitFor(() => {
      const match = out.match(pattern);
      if (match) return match;
      if (exitCode !== undefined) throw new Error(`the app exited (${exitCode}) before printing ${pattern}\nstdout:\n${out}\nstderr:\n${err}`);
      return undefined;
    }, timeoutMs, String(pattern)),
    exited: (timeoutMs = 10_000) => waitFor(() => (exitCode === undefined ? undefined : { code: exitCode }), timeoutMs, 'exit')
      .then(({ code }) => code),
    stop: async () => {
      if (exitCode === undefined) child.kill('SIGTERM');
      return app.exited();
    },
  };
  return app;
}
