import { spawn, type ChildProcess } from 'node:child_process';

/** A spawned standalone emulator (its own process group) and what it printed. */
export interface SpawnedCli {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<number | null>;
  /** Signals the whole process group (npx does not forward signals to tsx). */
  stop: (signal?: NodeJS.Signals) => void;
}

/** Spawns `npx tsx lib/emulator/cli.ts <args>` from the repository root. */
export function spawnEmulatorCli(args: string[]): SpawnedCli {
  const child = spawn('npx', ['tsx', 'lib/emulator/cli.ts', ...args], { cwd: process.cwd(), detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (c: Buffer) => { out += c.toString(); });
  child.stderr?.on('data', (c: Buffer) => { err += c.toString(); });
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const stop = (signal: NodeJS.Signals = 'SIGTERM'): void => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // already gone
      }
    }
  };
  return { child, stdout: () => out, stderr: () => err, exited, stop };
}

/** Resolves with the first match of `pattern` in the output, or rejects after `timeoutMs`. */
export function waitForOutput(cli: SpawnedCli, pattern: RegExp, timeoutMs = 15_000): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      clearInterval(poll);
      reject(new Error(`no ${pattern} in output: ${cli.stdout()} ${cli.stderr()}`));
    }, timeoutMs);
    const poll = setInterval(() => {
      const m = pattern.exec(cli.stdout());
      if (m) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(m);
      }
    }, 20);
  });
}
