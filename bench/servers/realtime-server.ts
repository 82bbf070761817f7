// Real-time bench server: Socket.IO on its own port, with our authentication, the registry and
// its re-verification (BENCH_REALTIME_AUTH=1), or the same server without authentication.
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { createAuthenticator } from '../../lib/auth/index.js';
import { CHANNELS, type PlatformCallMessage } from '../../lib/diagnostics/channels.js';
import { PlatformClient } from '../../lib/index.js';
import { SessionRegistry, type ReverifyStats } from '../../lib/realtime/index.js';
import { useSocketIoAuth } from '../../lib/socket-io/index.js';
import type { IpcOp, RealtimePassStats } from '../harness/ipc-protocol.js';
import { requireEnv, serveControl } from './server-kit.js';

const authenticated = process.env.BENCH_REALTIME_AUTH === '1';
const server = createServer();
const io = new Server(server, { transports: ['websocket'], serveClient: false });
let registry: SessionRegistry | undefined;
let client: PlatformClient | undefined;

let e2Calls = 0;
let inFlight = 0;
let maxInFlight = 0;
let passStartedAt = performance.now();
const passWaiters: Array<(stats: RealtimePassStats) => void> = [];

if (authenticated) {
  client = new PlatformClient({
    baseUrl: requireEnv('PLATFORM_BASE_URL'),
    clientId: requireEnv('PLATFORM_CLIENT_ID'),
    clientSecret: requireEnv('PLATFORM_CLIENT_SECRET'),
    gameId: requireEnv('PLATFORM_GAME_ID'),
  });
  const authenticate = createAuthenticator(client);
  registry = new SessionRegistry({ authenticate, reverifyIntervalMs: Number(requireEnv('BENCH_REVERIFY_INTERVAL_MS')) });
  useSocketIoAuth(io, { authenticate, registry });
  registry.reverifier.on('pass', (stats: ReverifyStats) => {
    const pass: RealtimePassStats = { ...stats, e2Calls, maxInFlight, durationMs: Math.round(performance.now() - passStartedAt), tokens: registry!.tokenCount };
    e2Calls = 0;
    maxInFlight = inFlight;
    passStartedAt = performance.now();
    for (const waiter of passWaiters.splice(0)) waiter(pass);
  });
}

/**
 * Counts E2 calls and the most in flight, from the first stats request on (after the handshakes
 * are measured): a subscriber to the platform-call channel makes every call a traced one, which
 * the handshakes measured must not pay for.
 */
let counting = false;
function countCalls(): void {
  if (counting || !authenticated) return;
  counting = true;
  // Only calls seen starting are counted out: one already in flight now is not.
  const started = new WeakSet<PlatformCallMessage>();
  diagnosticsChannel.tracingChannel<PlatformCallMessage, PlatformCallMessage>(CHANNELS.platformCall).subscribe({
    start(message) {
      if (message.endpoint !== 'E2') return;
      started.add(message);
      e2Calls += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
    },
    end() {},
    asyncStart() {},
    asyncEnd(message) {
      if (started.delete(message)) inFlight -= 1;
    },
    error() {},
  });
}
if (!authenticated) {
  io.on('connection', (socket) => socket.emit('session', { member_no: '30000000000', guid: null }));
}

function nextPass(): Promise<RealtimePassStats> {
  return new Promise((resolve) => passWaiters.push(resolve));
}

async function handle(op: IpcOp): Promise<unknown> {
  if (op.op === 'realtime-stats') {
    countCalls();
    return { connections: registry?.size ?? io.engine.clientsCount, tokens: registry?.tokenCount ?? 0, maxConcurrentCalls: client?.config.maxConcurrentCalls ?? 0 };
  }
  if (op.op === 'realtime-pass') {
    if (registry === undefined) throw new Error('no re-verification without authentication');
    let last = await nextPass();
    for (let i = 1; i < op.passes; i += 1) last = await nextPass();
    return last;
  }
  throw new Error(`op ${op.op} is not supported by this server`);
}

await new Promise<void>((resolve) => server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, resolve));
serveControl((server.address() as AddressInfo).port, handle, () => {
  registry?.closeAll('shutdown');
  void client?.close();
});
