// CPU per verified request in this process, the platform a trivial stub in a child process (so
// its work is not counted). Each case calls its handler with a mock Express request/response,
// 50 requests in flight, distinct tokens (no single flight, no cache hit), and reads
// process.cpuUsage() around a fixed number of requests: CPU time, not requests/s, so a busy
// machine changes the figures far less than it changes throughput.
//
//   floor    what bench/servers/floor-server.ts does per request: one undici Pool POST, body.json()
//   library  requireGameUser({ client }) then the route, default options (no cache)
//   client   client.verifyUserToken(token) alone, no middleware
//
// Usage: npx tsx bench/verify-cpu.ts [--requests=20000] [--rounds=5] [--cases=floor,library,client]
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import { PlatformClient, requireGameUser, silentLogger } from '../lib/index.js';
import { stubFloorRoute } from './harness/floor-route.js';
import { startStubPlatform } from './harness/stub-platform.js';

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const REQUESTS = Number(arg('requests', '20000'));
const ROUNDS = Number(arg('rounds', '5'));
const CASES = arg('cases', 'floor,library,client').split(',');
const IN_FLIGHT = 50;

const stub = await startStubPlatform();
const baseUrl = stub.url;

const tokens = Array.from({ length: 1000 }, () => randomBytes(24).toString('base64url'));

class MockResponse extends EventEmitter {
  writableEnded = false;
  statusCode = 200;
  done: (() => void) | undefined;
  status(code: number): this {
    this.statusCode = code;
    return this;
  }
  set(): this {
    return this;
  }
  json(_body: unknown): void {
    this.end();
  }
  end(): void {
    this.writableEnded = true;
    this.emit('close');
    this.done?.();
  }
}

type Handler = (req: Request, res: Response, next: NextFunction) => void;

function route(handlers: Handler[]): (token: string) => Promise<void> {
  return (token) => new Promise<void>((resolve, reject) => {
    const req = { headers: { authorization: `Bearer ${token}` }, method: 'GET', url: '/api/me', query: {} } as unknown as Request;
    const res = new MockResponse();
    res.done = resolve;
    let i = 0;
    const next = (err?: unknown): void => {
      if (err !== undefined) {
        reject(err);
        return;
      }
      const h = handlers[i++];
      if (h === undefined) reject(new Error('no handler answered'));
      else h(req, res as unknown as Response, next);
    };
    next();
  });
}

function answer(req: Request, res: Response): void {
  res.set('Cache-Control', 'no-store').json({ member_no: req.user!.memberNo, guid: req.user!.guid });
}

async function floorCase(): Promise<(token: string) => Promise<void>> {
  return route([(await stubFloorRoute(baseUrl)) as Handler]);
}

function newClient(): PlatformClient {
  return new PlatformClient({ baseUrl, clientId: 'c', clientSecret: 's', gameId: 'demo-game', logger: silentLogger });
}

const runners: Record<string, () => Promise<(token: string) => Promise<void>>> = {
  floor: floorCase,
  library: () => Promise.resolve(route([requireGameUser({ client: newClient() }) as Handler, answer as Handler])),
  client: () => {
    const client = newClient();
    return Promise.resolve(async (token: string) => {
      await client.verifyUserToken(token);
    });
  },
};

async function drive(run: (token: string) => Promise<void>, count: number): Promise<number> {
  let next = 0;
  const started = process.cpuUsage();
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) {
      const i = next++;
      await run(tokens[i % tokens.length]!);
    }
  }));
  const used = process.cpuUsage(started);
  return (used.user + used.system) / count;
}

const ready = new Map<string, (token: string) => Promise<void>>();
for (const c of CASES) {
  const run = await runners[c]!();
  await drive(run, Math.min(REQUESTS, 5000)); // warm-up: JIT, connections, the API token
  ready.set(c, run);
}
const figures = new Map<string, number[]>(CASES.map((c) => [c, []]));
for (let r = 0; r < ROUNDS; r += 1) {
  for (const c of r % 2 === 0 ? CASES : [...CASES].reverse()) figures.get(c)!.push(await drive(ready.get(c)!, REQUESTS));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = figures.has('floor') ? median(figures.get('floor')!) : undefined;
for (const [c, xs] of figures) {
  const m = median(xs);
  // The least of the rounds is the one least disturbed by other processes.
  console.log(`${c.padEnd(8)} ${m.toFixed(1)} us/req CPU, least ${Math.min(...xs).toFixed(1)} (${xs.map((x) => x.toFixed(1)).join(' ')})${floor === undefined ? '' : `  x${(m / floor).toFixed(2)} floor, +${(m - floor).toFixed(1)} us`}`);
}
stub.stop();
process.exit(0);
