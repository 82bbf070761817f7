import { spawn } from 'node:child_process';
import { connect } from 'node:net';
import path from 'node:path';
import { Client as ColyseusClient } from '@colyseus/sdk';
import { io as ioClient } from 'socket.io-client';
import WebSocket from 'ws';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { buildSnippets, type BuiltSnippets } from '../support/compile-snippets.js';
import { docBlocks, docFiles, type DocBlock } from '../support/doc-programs.js';
import { startTestRedis, type TestRedis } from '../support/redis-server.js';
import { freePort } from '../support/free-port.js';

// Every complete program of the README and the guides (doc-examples.spec.ts
// type-checks them) runs as written against the emulator (the PLATFORM_*
// variables fromEnv() reads point to it): a server is asked as a game client
// would ask it, then must end on one SIGTERM.
const ROOT = path.resolve(import.meta.dirname, '../..');
const PLAYER = '20005061987';

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

interface Running {
  output: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

function run(file: string, env: Record<string, string>): Running {
  const child = spawn(process.execPath, [file], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  return { output: () => output, exited, kill: (signal) => child.kill(signal) };
}

async function listening(port: number, program: Running): Promise<void> {
  let ended = false;
  void program.exited.then(() => { ended = true; });
  // The program's start-up is its own business: wait for its port, or for it to end.
  for (let i = 0; i < 600 && !ended; i += 1) {
    if (await canConnect(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the program did not listen on ${port}:\n${program.output()}`);
}

function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms); });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

async function askHttp(port: number, route: string, token: string): Promise<void> {
  const ok = await fetch(`http://127.0.0.1:${port}${route}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await ok.text();
  expect({ status: ok.status, member: body.includes(PLAYER) }).toEqual({ status: 200, member: true });
  const refused = await fetch(`http://127.0.0.1:${port}${route}`);
  expect({ status: refused.status, type: refused.headers.get('content-type') }).toEqual({ status: 401, type: expect.stringContaining('application/problem+json') });
  expect(JSON.parse(await refused.text())).toMatchObject({ action: 'login' });
}

function askWs(port: number, route: string, token: string): Promise<void> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${route}`, { headers: { authorization: `Bearer ${token}` } });
  return new Promise((resolve, reject) => {
    ws.once('error', reject);
    ws.once('message', (data) => {
      const message = JSON.parse(data.toString()) as Record<string, unknown>;
      ws.close();
      if (message.type === 'session' && message.member_no === PLAYER) resolve();
      else reject(new Error(`first message: ${data.toString()}`));
    });
  });
}

function askSocketIo(port: number, token: string): Promise<void> {
  const socket = ioClient(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
  return new Promise((resolve, reject) => {
    socket.once('connect_error', reject);
    socket.once('session', (session: { member_no?: string }) => {
      socket.close();
      if (session.member_no === PLAYER) resolve();
      else reject(new Error(`session: ${JSON.stringify(session)}`));
    });
  });
}

async function askColyseus(port: number, room: string, token: string): Promise<void> {
  // The Colyseus SDK reports a refused join and unhandled messages on console.warn: expected here.
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    const client = new ColyseusClient(`ws://127.0.0.1:${port}`);
    await expect(client.joinOrCreate(room, {})).rejects.toMatchObject({ message: 'login' });
    const joined = await client.joinOrCreate(room, { token });
    const pong = new Promise<{ member_no?: string }>((resolve) => joined.onMessage('pong', resolve));
    joined.send('ping');
    expect(await pong).toMatchObject({ member_no: PLAYER });
    await joined.leave();
  } finally {
    console.warn = warn;
  }
}

interface Context {
  emulator: Emulator;
  redis: TestRedis | undefined;
}

// Runs one program as written and asks it what a game client would; throws what went wrong.
async function check(block: DocBlock, file: string, { emulator, redis }: Context): Promise<void> {
  const port = await freePort();
  const env: Record<string, string> = {
    PLATFORM_BASE_URL: emulator.url, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game',
    PORT: String(port), MSGPACKR_NATIVE_ACCELERATION_DISABLED: 'true',
    ...(redis === undefined ? {} : { REDIS_URL: redis.url }),
  };
  const program = run(file, env);
  try {
    if (block.probe.kind === 'script') {
      const { code } = await within(program.exited, 60_000, block.name);
      expect({ code, output: code === 0 ? '' : program.output() }).toEqual({ code: 0, output: '' });
      return;
    }
    await listening(port, program);
    const { access_token: token } = emulator.login(PLAYER);
    const probe = block.probe;
    if (probe.kind === 'http') await askHttp(port, probe.path, token);
    if (probe.kind === 'ws') await within(askWs(port, probe.path, token), 20_000, 'ws');
    if (probe.kind === 'socket.io') {
      await within(askSocketIo(port, token), 20_000, 'socket.io');
      // A request outside Socket.IO's path (a load balancer's probe, a browser) gets an answer, not a hang.
      const plain = await within(fetch(`http://127.0.0.1:${port}/`), 5_000, 'a plain HTTP request');
      expect(plain.status).toBe(404);
    }
    if (probe.kind === 'colyseus') await within(askColyseus(port, probe.room, token), 20_000, 'colyseus');
    // One SIGTERM ends the program (an orchestrator never waits out its kill timeout).
    program.kill('SIGTERM');
    const ended = await within(program.exited, 20_000, `${block.name} after one SIGTERM`);
    expect({ endedByOneSigterm: ended.code === 0 || ended.signal === 'SIGTERM', output: ended.code === 0 || ended.signal === 'SIGTERM' ? '' : program.output() })
      .toEqual({ endedByOneSigterm: true, output: '' });
  } finally {
    program.kill('SIGKILL');
  }
}

// A few programs at once: most of each run is start-up and waiting, not CPU.
async function checkAll(blocks: DocBlock[], files: string[], context: Context, width = 3): Promise<Array<unknown>> {
  const outcomes: unknown[] = new Array(blocks.length).fill(undefined);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < blocks.length) {
      const i = next++;
      outcomes[i] = await check(blocks[i]!, files[i]!, context).then(() => undefined, (err: unknown) => err ?? new Error('failed'));
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return outcomes;
}

describe('documentation programs', () => {
  const programs = docFiles().flatMap(docBlocks).filter((b) => !b.fragment);
  let built: BuiltSnippets;
  let emulator: Emulator;
  let redis: TestRedis | undefined;
  let outcomes: unknown[] = [];
  beforeAll(async () => {
    built = buildSnippets(programs);
    emulator = await startEmulator();
    if (programs.some((p) => p.code.includes('REDIS_URL'))) redis = await startTestRedis();
    outcomes = await checkAll(programs, built.programs, { emulator, redis });
  }, 240_000);
  afterAll(async () => {
    built?.cleanup();
    await emulator?.close();
    await redis?.stop();
  });

  it('in the README and docs/ are at least the 13 complete programs the guides hold', () => {
    expect(programs.length).toBeGreaterThanOrEqual(13);
  });

  it.each(programs.map((p, i) => [p.name, i] as const))('%s runs against the emulator and answers as documented', (_name, index) => {
    const outcome = outcomes[index];
    if (outcome !== undefined) throw outcome;
  });
});
