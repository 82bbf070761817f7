// Real-time section of `npm run bench` (also `npm run bench:realtime` on its own): N concurrent
// Socket.IO connections over T distinct tokens, against our authenticated server and the same
// server without authentication, each in its own process, the emulator (0 ms) in another:
// handshakes/s (ratio), E2 calls per re-verification pass and the most in flight at once, memory
// per live connection (heap after forced GC) beyond Socket.IO's own.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { io as ioClient, type Socket } from 'socket.io-client';
import { killAllChildren, spawnServer, type ServerProcess } from './harness/children.js';
import type { MemorySample } from './harness/ipc-protocol.js';
import { startPlatform, type BenchPlatform } from './harness/platform.js';
import type { RealtimeBenchOptions, RealtimeBenchResult, RealtimeSide } from './harness/results.js';
import { startStubPlatform } from './harness/stub-platform.js';

export const DEFAULT_REALTIME_OPTIONS: RealtimeBenchOptions = { connections: 10_000, tokens: 1_000, reverifyIntervalMs: 10_000, openConcurrency: 200 };

async function openAll(url: string, tokens: string[], count: number, concurrency: number): Promise<{ sockets: Socket[]; ms: number }> {
  const sockets: Socket[] = [];
  let next = 0;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (next < count) {
      const i = next++;
      const socket = ioClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: tokens[i % tokens.length]! } });
      await new Promise<void>((resolve, reject) => {
        socket.once('session', () => resolve());
        socket.once('connect_error', (err) => reject(new Error(`handshake ${i} refused: ${err.message}`)));
      });
      sockets.push(socket);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return { sockets, ms: performance.now() - started };
}

async function closeAll(sockets: Socket[]): Promise<void> {
  for (const socket of sockets) socket.close();
  await new Promise((resolve) => setTimeout(resolve, 500));
}

async function measureSide(name: string, env: Record<string, string>, tokens: string[], options: RealtimeBenchOptions, log: (line: string) => void): Promise<{ side: RealtimeSide; server: ServerProcess; sockets: Socket[] }> {
  const server = await spawnServer(name, 'realtime-server.ts', { env, nodeArgs: ['--expose-gc', ...profileArgs()] });
  // Warm up: a few connections, so the first handshake's one-time costs are not measured.
  const warm = await openAll(server.url, tokens, 50, 10);
  await closeAll(warm.sockets);
  const before: MemorySample = await server.call({ op: 'memory' });
  const { sockets, ms } = await openAll(server.url, tokens, options.connections, options.openConcurrency);
  const after: MemorySample = await server.call({ op: 'memory' });
  const side: RealtimeSide = {
    handshakesPerS: Math.round(options.connections / (ms / 1000)),
    openMs: Math.round(ms),
    heapBeforeBytes: before.heapUsedBytes,
    heapAfterBytes: after.heapUsedBytes,
    heapPerConnectionBytes: Math.round((after.heapUsedBytes - before.heapUsedBytes) / options.connections),
    rssPerConnectionBytes: Math.round((after.rssBytes - before.rssBytes) / options.connections),
  };
  log(`  ${name}: ${options.connections} connections in ${side.openMs} ms (${side.handshakesPerS} handshakes/s), heap ${side.heapPerConnectionBytes} B/connection`);
  return { side, server, sockets };
}

/** Runs the real-time section against a running platform. */
export async function runRealtime(platform: Pick<BenchPlatform, 'mint' | 'serverEnv'>, log: (line: string) => void, options: RealtimeBenchOptions = DEFAULT_REALTIME_OPTIONS): Promise<RealtimeBenchResult> {
  const tokens = await platform.mint(options.tokens);
  const base = { ...platform.serverEnv, BENCH_REVERIFY_INTERVAL_MS: String(options.reverifyIntervalMs) };
  const open = await measureSide('realtime-unauthenticated', { ...base, BENCH_REALTIME_AUTH: '0' }, tokens, options, log);
  await closeAll(open.sockets);
  await open.server.stop();
  const ours = await measureSide('realtime-ours', { ...base, BENCH_REALTIME_AUTH: '1' }, tokens, options, log);
  const stats = await ours.server.call({ op: 'realtime-stats' });
  log(`  re-verification: ${stats.connections} live connections over ${stats.tokens} tokens, interval ${options.reverifyIntervalMs} ms; waiting for a full pass`);
  // The first pass window also holds the handshakes' calls: measure the second.
  const pass = await ours.server.call({ op: 'realtime-pass', passes: 2 });
  log(`  pass: ${pass.e2Calls} E2 calls for ${pass.tokens} tokens in ${pass.durationMs} ms, at most ${pass.maxInFlight} in flight (client limit ${stats.maxConcurrentCalls}); ${pass.verified} verified, ${pass.ended} ended`);
  await closeAll(ours.sockets);
  await ours.server.stop();
  const handshakeRatio = Math.round((ours.side.handshakesPerS / open.side.handshakesPerS) * 1000) / 1000;
  const addedBytesPerConnection = ours.side.heapPerConnectionBytes - open.side.heapPerConnectionBytes;
  return {
    options,
    ours: ours.side,
    unauthenticated: open.side,
    handshakeRatio,
    addedBytesPerConnection,
    pass,
    maxConcurrentCalls: stats.maxConcurrentCalls,
    targets: {
      handshakeRatio: handshakeRatio >= 0.75,
      e2CallsPerPass: pass.e2Calls === pass.tokens,
      noBurst: pass.maxInFlight <= stats.maxConcurrentCalls,
      memory: addedBytesPerConnection <= 1024,
    },
  };
}

function optionsFromEnv(env: NodeJS.ProcessEnv): RealtimeBenchOptions {
  const int = (name: string, fallback: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw new Error(`${name} must be a positive whole number, got "${raw}"`);
    return Number(raw);
  };
  return {
    connections: int('BENCH_RT_CONNECTIONS', DEFAULT_REALTIME_OPTIONS.connections),
    tokens: int('BENCH_RT_TOKENS', DEFAULT_REALTIME_OPTIONS.tokens),
    reverifyIntervalMs: int('BENCH_RT_INTERVAL_MS', DEFAULT_REALTIME_OPTIONS.reverifyIntervalMs),
    openConcurrency: int('BENCH_RT_OPEN_CONCURRENCY', DEFAULT_REALTIME_OPTIONS.openConcurrency),
  };
}

/**
 * `BENCH_RT_CPU_PROF=1`: the emulator and both servers write a CPU profile each to
 * bench/.built/profiles (read them with `npx tsx bench/profile-summary.ts FILE`).
 */
function profileArgs(): string[] {
  return process.env.BENCH_RT_CPU_PROF === '1' ? ['--cpu-prof', '--cpu-prof-dir', fileURLToPath(new URL('./.built/profiles/', import.meta.url))] : [];
}

async function main(): Promise<void> {
  const options = optionsFromEnv(process.env);
  const log = (line: string): void => void process.stdout.write(`${line}\n`);
  log(`bench:realtime: ${options.connections} Socket.IO connections over ${options.tokens} tokens`);
  // BENCH_RT_PLATFORM=stub: the side-by-side stage's stub platform (every token valid, the same
  // member for all, the least CPU per call) instead of the emulator.
  const stubbed = process.env.BENCH_RT_PLATFORM === 'stub';
  const stub = stubbed ? await startStubPlatform() : undefined;
  const platform = stub === undefined ? await startPlatform(options.tokens, { nodeArgs: profileArgs() }) : undefined;
  const source = stub === undefined ? platform! : {
    serverEnv: stub.serverEnv,
    mint: (count: number) => Promise.resolve(Array.from({ length: count }, () => randomBytes(48).toString('base64url'))),
  };
  try {
    const result = await runRealtime(source, log, options);
    const dir = fileURLToPath(new URL('./results/', import.meta.url));
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${dir}realtime.json`, `${JSON.stringify({ generatedAt: new Date().toISOString(), ...result }, null, 2)}\n`);
    log(`handshakes/s ours ${result.ours.handshakesPerS} vs unauthenticated ${result.unauthenticated.handshakesPerS}: ratio ${result.handshakeRatio} (goal >= 0.75)`);
    log(`E2 calls per pass ${result.pass.e2Calls} for ${result.pass.tokens} tokens; most in flight ${result.pass.maxInFlight} (limit ${result.maxConcurrentCalls})`);
    log(`heap per connection: ours ${result.ours.heapPerConnectionBytes} B, Socket.IO alone ${result.unauthenticated.heapPerConnectionBytes} B: +${result.addedBytesPerConnection} B (goal <= 1024)`);
    log(`targets: ${JSON.stringify(result.targets)}; results in bench/results/realtime.json`);
  } finally {
    stub?.stop();
    await platform?.emulator.stop();
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.on('exit', killAllChildren);
  main().then(() => process.exit(0), (err: unknown) => {
    process.stderr.write(`bench:realtime: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    process.exit(1);
  });
}
