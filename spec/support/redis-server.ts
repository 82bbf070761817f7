import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { freePort } from './free-port.js';

/** A Redis server for tests: a private `redis-server` on a free loopback port, or the one at REDIS_URL. */
export interface TestRedis {
  readonly url: string;
  /** False with REDIS_URL: a server we did not start is never stopped or restarted. */
  readonly own: boolean;
  /** Stops the private server (SIGKILL: as abrupt as a crash). */
  kill(): Promise<void>;
  /** Starts the private server again on the same port, empty. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** Every redis-server this process started and has not seen exit: killed if the test process exits first. */
const running = new Set<ChildProcess>();
let exitHook = false;

/**
 * Starts `redis-server` with `args` (a config file first, or `--port ...`) and
 * resolves once its log shows `readyText`; the process is killed when the
 * test process exits, whatever happened to the test.
 */
export function launchRedisProcess(args: readonly string[], readyText = 'Ready to accept connections', cwd?: string): Promise<ChildProcess> {
  if (!exitHook) {
    exitHook = true;
    process.once('exit', () => {
      for (const c of running) c.kill('SIGKILL');
    });
  }
  return new Promise((resolve, reject) => {
    const child = spawn('redis-server', [...args], { stdio: ['ignore', 'pipe', 'pipe'], ...(cwd === undefined ? {} : { cwd }) });
    running.add(child);
    child.once('exit', () => running.delete(child));
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${out}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run redis-server (install it: apt-get install redis-server): ${error.message}`));
    });
    const early = (code: number | null): void => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}):\n${out}`));
    };
    child.once('exit', early);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      if (out.includes(readyText)) {
        clearTimeout(timer);
        child.off('exit', early);
        resolve(child);
      }
    });
  });
}

function launch(port: number, args: readonly string[]): Promise<ChildProcess> {
  return launchRedisProcess(['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--protected-mode', 'yes', '--loglevel', 'notice', ...args]);
}

/** Resolves once `child` has exited (at once if it has). */
export function ended(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()));
}

/** `args`: more `redis-server` options (e.g. `['--requirepass', 'pw']`); they make the server always a private one. */
export async function startTestRedis(args: readonly string[] = []): Promise<TestRedis> {
  const external = process.env.REDIS_URL;
  if (external !== undefined && external !== '' && args.length === 0) {
    return { url: external, own: false, kill: async () => undefined, restart: async () => undefined, stop: async () => undefined };
  }
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port, args);
  const kill = async (): Promise<void> => {
    const c = child;
    child = undefined;
    if (c === undefined) return;
    c.kill('SIGKILL');
    await ended(c);
  };
  return {
    url: `redis://127.0.0.1:${port}`,
    own: true,
    kill,
    restart: async () => {
      await kill();
      child = await launch(port, args);
    },
    stop: kill,
  };
}

/** One Redis per `describe` block, started in beforeAll and stopped in afterAll. */
export function useRedis(): { readonly redis: TestRedis } {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });
  return {
    get redis(): TestRedis {
      if (!redis) throw new Error('redis not started yet');
      return redis;
    },
  };
}
