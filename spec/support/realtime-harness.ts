import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server as IoServer } from 'socket.io';
import { io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import WebSocket from 'ws';
import { createAuthenticator } from '../../lib/auth/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import { SessionRegistry, type SessionRegistryOptions } from '../../lib/realtime/index.js';
import { useSocketIoAuth } from '../../lib/socket-io/index.js';
import { attachWebSocket, type AttachedWebSocket } from '../../lib/ws/index.js';
import { configFor, startTestEmulator } from './client-harness.js';
import { until } from './until.js';

export const COOKIE = 'SUAT';

/** An HTTP server with `/ws` and Socket.IO on one port, against an emulator. */
export interface RealtimeServer {
  url: string;
  wsUrl: string;
  client: PlatformClient;
  registry: SessionRegistry;
  io: IoServer;
  /** The `/ws` adapter (its handshakes still in progress: `wsAdapter.pending`). */
  wsAdapter: AttachedWebSocket;
  server: Server;
  close(): Promise<void>;
}

export async function startRealtimeServer(
  emulator: Emulator,
  options: Partial<SessionRegistryOptions> & { config?: Partial<PlatformConfig>; firstMessageTimeoutMs?: number } = {},
): Promise<RealtimeServer> {
  const client = new PlatformClient(configFor(emulator, options.config));
  const authenticate = createAuthenticator(client, { tokenFrom: { cookie: COOKIE } });
  const registry = new SessionRegistry({ authenticate, events: client, now: () => emulator.now(), reverifyIntervalMs: 0, ...options });
  const server = createServer((_req, res) => res.writeHead(404).end());
  const io = new IoServer(server, { destroyUpgrade: false });
  useSocketIoAuth(io, { authenticate, registry, cookie: COOKIE });
  const wsAdapter = attachWebSocket(server, { authenticate, registry, cookie: COOKIE, path: '/ws', firstMessageTimeoutMs: options.firstMessageTimeoutMs });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    wsUrl: `ws://127.0.0.1:${port}/ws`,
    client,
    registry,
    io,
    wsAdapter,
    server,
    async close(): Promise<void> {
      registry.closeAll('shutdown');
      await new Promise<void>((resolve) => void io.close(() => resolve()));
      server.closeAllConnections();
      await client.close();
    },
  };
}

/** A `ws` client that records every message and its close. */
export interface WsProbe {
  ws: WebSocket;
  messages: Array<Record<string, unknown>>;
  /** Resolves with the first message of `type` (already received or next). */
  next(type: string): Promise<Record<string, unknown>>;
  closed: Promise<{ code: number; reason: string }>;
}

export function probeWs(ws: WebSocket): WsProbe {
  const messages: Array<Record<string, unknown>> = [];
  const waiters: Array<{ type: string; resolve: (m: Record<string, unknown>) => void }> = [];
  ws.on('message', (data) => {
    const message = JSON.parse(data.toString()) as Record<string, unknown>;
    messages.push(message);
    for (const waiter of waiters.splice(0)) {
      if (waiter.type === message.type) waiter.resolve(message);
      else waiters.push(waiter);
    }
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })));
  return {
    ws,
    messages,
    closed,
    next(type) {
      const seen = messages.find((m) => m.type === type);
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ type, resolve }));
    },
  };
}

/** Opens a `ws` connection; resolves once the server said `session`. */
export async function openWs(url: string, headers: Record<string, string> = {}): Promise<WsProbe> {
  const probe = probeWs(new WebSocket(url, { headers }));
  await probe.next('session');
  return probe;
}

/** A refused upgrade: status, headers and parsed body. */
export function refusedWs(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    ws.on('open', () => reject(new Error('upgrade was accepted')));
    ws.on('error', () => undefined);
    ws.on('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as Record<string, unknown> }));
    });
  });
}

/** A Socket.IO client on the websocket transport, never reconnecting, with `auth.token` and extra headers. */
function connectIo(url: string, options: { token?: unknown; headers?: Record<string, string> }): ClientSocket {
  return ioClient(url, {
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    ...(options.token === undefined ? {} : { auth: { token: options.token } }),
    extraHeaders: options.headers ?? {},
  });
}

/** Connects a Socket.IO client (websocket transport); resolves once connected and `session` arrived. */
export function openIo(url: string, options: { token?: string; headers?: Record<string, string> } = {}): Promise<{ socket: ClientSocket; session: Record<string, unknown> }> {
  const socket = connectIo(url, options);
  return new Promise((resolve, reject) => {
    socket.once('session', (session: Record<string, unknown>) => resolve({ socket, session }));
    socket.once('connect_error', (err) => reject(err));
  });
}

/** A refused Socket.IO handshake: the `connect_error`. */
export function refusedIo(url: string, options: { token?: unknown; headers?: Record<string, string> } = {}): Promise<Error & { data?: Record<string, unknown> }> {
  const socket = connectIo(url, options);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => reject(new Error('connected')));
    socket.once('connect_error', (err) => {
      socket.close();
      resolve(err);
    });
  });
}

/** Resolves with the payload of the next `event`, and the disconnect that follows. */
export function nextIo(socket: ClientSocket, event: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => socket.once(event, resolve));
}

export function ioDisconnected(socket: ClientSocket): Promise<string> {
  if (socket.disconnected) return Promise.resolve('already');
  return new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason)));
}

/**
 * An emulator and a real-time server for one `describe` block, with budgets
 * long enough for tests that slow E2 on purpose; faults and the request log
 * are cleared before each test. `e2InFlight()` resolves once an E2 call is
 * waiting for its answer.
 */
export function useSlowPlatformRealtime(): { readonly emulator: Emulator; readonly rt: RealtimeServer; e2InFlight(): Promise<void> } {
  let emulator: Emulator | undefined;
  let rt: RealtimeServer | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator);
  });
  afterAll(async () => {
    await rt?.close();
    await emulator?.close();
  });
  beforeEach(() => {
    emulator!.clearFaults();
    emulator!.clearRequests();
  });
  return {
    get emulator() { return emulator!; },
    get rt() { return rt!; },
    e2InFlight: () => until(() => emulator!.requests({ endpoint: 'E2' }).some((r) => r.status === null), 15_000, 'an E2 call in flight'),
  };
}
