// Server processes whose CPU time per request is measured by the process that loads them:
// bench/example-app-middleware.ts and bench/compare-builds.ts. The server reports its own
// `process.cpuUsage()` between the parent's `start` and `stop`; the load comes from the parent
// (keep-alive sockets to 127.0.0.1), so none of it is counted.
import { fork } from 'node:child_process';
import type { ChildProcess, ForkOptions } from 'node:child_process';
import { Agent, request } from 'node:http';

/** A running server process and its port. */
export interface CpuServer {
  readonly child: ChildProcess;
  readonly port: number;
}

/**
 * In the server process, once it listens on `port`: tells the parent the port, then answers
 * `start` and `stop` (the CPU time in µs since `start`) and runs `exit` on the parent's `exit`.
 */
export function answerCpuMeter(port: number, exit: () => void): void {
  let started = process.cpuUsage();
  process.on('message', (m: { op: string }) => {
    if (m.op === 'start') {
      started = process.cpuUsage();
      process.send!({ started: true });
    } else if (m.op === 'stop') {
      const used = process.cpuUsage(started);
      process.send!({ cpuUs: used.user + used.system });
    } else {
      exit();
    }
  });
  process.send!({ port });
}

/** Starts a server process and waits for its port; its failure ends this process (after `cleanUp`). */
export async function forkCpuServer(name: string, modulePath: string, args: string[], options: ForkOptions, cleanUp: () => void): Promise<CpuServer> {
  const child = fork(modulePath, args, options);
  child.once('exit', (code) => {
    if (code !== 0) {
      process.stderr.write(`the ${name} server exited with ${code}\n`);
      cleanUp();
      process.exit(1);
    }
  });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  return { child, port };
}

function ask<T>(child: ChildProcess, message: object): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as T));
    child.send(message);
  });
}

/** `GET /api/me` with bearer tokens in rotation, `inFlight` at a time on keep-alive sockets. */
export class KeepAliveLoad {
  readonly #agent: Agent;

  private readonly inFlight: number;
  private readonly tokens: readonly string[];

  constructor(inFlight: number, tokens: readonly string[]) {
    this.inFlight = inFlight;
    this.tokens = tokens;
    this.#agent = new Agent({ keepAlive: true, maxSockets: inFlight });
  }

  async run(port: number, count: number): Promise<void> {
    let next = 0;
    await Promise.all(Array.from({ length: this.inFlight }, async () => {
      while (next < count) await this.#get(port, this.tokens[next++ % this.tokens.length]!);
    }));
  }

  /** The server's CPU time per request (µs) over `count` requests. */
  async cpuPerRequest(server: CpuServer, count: number): Promise<number> {
    await ask(server.child, { op: 'start' });
    await this.run(server.port, count);
    const { cpuUs } = await ask<{ cpuUs: number }>(server.child, { op: 'stop' });
    return cpuUs / count;
  }

  close(): void {
    this.#agent.destroy();
  }

  #get(port: number, token: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/api/me', agent: this.#agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`/api/me answered ${res.statusCode}`));
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      req.end();
    });
  }
}
