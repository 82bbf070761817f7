import { randomBytes } from 'node:crypto';
import type { Socket as NetSocket } from 'node:net';
import { Manager, io as ioClient } from 'socket.io-client';
import { Encoder, PacketType } from 'socket.io-parser';
import WebSocket from 'ws';
import { frameBatch } from './raw-frames.js';

/** What the hostile clients did, per shape: rounds, bytes they sent, and how many the app closed on them. */
export interface FloodTally {
  rounds: number;
  byShape: Record<string, { runs: number; sentMb: number; closedByServer: number }>;
}

const FLOOD_BYTES = 15 * 1024 * 1024;
const SHAPE_TIME_MS = 15_000;
// The longest a server that decided to close us takes to end the socket: its close grace (5 s) and some.
const SERVER_CLOSE_WAIT_MS = 8_000;
const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
const junk = (): string => randomBytes(32).toString('base64url');
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

// Writes batches to a socket that no longer reads, until the byte budget, the time budget, or the server closes it.
async function floodUnread(raw: NetSocket, batch: () => Buffer): Promise<{ sent: number; closed: boolean }> {
  let closed = false;
  raw.on('error', () => undefined);
  raw.once('close', () => void (closed = true));
  raw.pause();
  let sent = 0;
  const deadline = performance.now() + SHAPE_TIME_MS;
  while (!closed && sent < FLOOD_BYTES && performance.now() < deadline) {
    const chunk = batch();
    sent += chunk.length;
    if (!raw.write(chunk)) await Promise.race([new Promise((resolve) => raw.once('drain', resolve)), pause(1000)]);
    else await new Promise((resolve) => setImmediate(resolve));
  }
  // The server's close frame (and its end of the socket) waits behind the answers we never read:
  // read them now. A server that closed us ends the socket within its close grace; one that only
  // stopped reading leaves it up, and counts as not closed.
  if (!closed) {
    raw.resume();
    await Promise.race([new Promise((resolve) => raw.once('close', resolve)), pause(SERVER_CLOSE_WAIT_MS)]);
  }
  raw.destroy();
  return { sent, closed };
}

async function wsPingFlood(port: number, token: string): Promise<{ sent: number; closed: boolean }> {
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { authorization: `Bearer ${token}` } });
  ws.on('error', () => undefined);
  const opened = await Promise.race([
    new Promise<boolean>((resolve) => ws.once('message', () => resolve(true))),
    new Promise<boolean>((resolve) => ws.once('close', () => resolve(false))),
    pause(5000).then(() => false),
  ]);
  if (!opened) {
    ws.terminate();
    return { sent: 0, closed: false };
  }
  const raw = (ws as unknown as { _socket: NetSocket })._socket;
  return floodUnread(raw, () => frameBatch(4000, '{"type":"ping"}'));
}

async function ioAckFlood(port: number, token: string): Promise<{ sent: number; closed: boolean }> {
  const manager = new Manager(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true });
  const socket = manager.socket('/', { auth: { token } });
  const opened = await Promise.race([
    new Promise<boolean>((resolve) => socket.once('session', () => resolve(true))),
    new Promise<boolean>((resolve) => socket.once('connect_error', () => resolve(false))),
    pause(5000).then(() => false),
  ]);
  if (!opened) {
    socket.close();
    return { sent: 0, closed: false };
  }
  const raw = (manager.engine as unknown as { transport: { ws: { _socket: NetSocket } } }).transport.ws._socket;
  let ackId = 0;
  return floodUnread(raw, () => frameBatch(4000, () => `42${ackId++}["ping"]`));
}

// Clients that ask and leave before the answer: their platform calls must be cancelled.
async function abandoned(port: number, count: number): Promise<number> {
  const gone: Array<() => void> = [];
  for (let i = 0; i < count; i++) {
    const io = ioClient(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: junk() } });
    io.on('connect_error', () => undefined);
    gone.push(() => io.close());
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { authorization: `Bearer ${junk()}` } });
    ws.on('error', () => undefined);
    gone.push(() => ws.terminate());
  }
  await pause(300);
  for (const leave of gone) leave();
  return gone.length;
}

// Unauthenticated /ws sockets that send a token the platform does not know as their first
// message, then 15 large messages while it is being verified.
async function firstMessageBytes(port: number, count: number): Promise<{ sent: number; closed: number }> {
  const message = JSON.stringify({ type: 'note', pad: 'x'.repeat(64 * 1024 - 40) });
  const sockets = Array.from({ length: count }, () => new WebSocket(`ws://127.0.0.1:${port}/ws`));
  let sent = 0;
  let closed = 0;
  await Promise.all(sockets.map((ws) => new Promise<void>((resolve) => {
    ws.on('error', () => undefined);
    ws.once('close', () => {
      closed += 1;
      resolve();
    });
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'auth', token: junk() }));
      for (let i = 0; i < 15; i++) ws.send(message);
      sent += 15 * message.length;
    });
    setTimeout(resolve, 12_000);
  })));
  for (const ws of sockets) ws.terminate();
  return { sent, closed };
}

// One engine.io connection repeating CONNECT for the same namespace.
async function repeatedConnects(port: number, token: string, count: number): Promise<{ sent: number; closed: boolean }> {
  const manager = new Manager(`http://127.0.0.1:${port}`, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
  const opened = await Promise.race([new Promise<boolean>((resolve) => manager.open((err) => resolve(err === undefined))), pause(5000).then(() => false)]);
  if (!opened) return { sent: 0, closed: false };
  let closed = false;
  manager.engine.once('close', () => void (closed = true));
  const [frame] = new Encoder().encode({ type: PacketType.CONNECT, nsp: '/', data: { token } }) as string[];
  for (let i = 0; i < count; i++) manager.engine.write(frame!);
  await pause(2000);
  manager.engine.close();
  return { sent: count * frame!.length, closed };
}

/**
 * Runs every hostile shape in turn, round after round, until `stop()` says
 * so: a `/ws` client and a Socket.IO client that stop reading and flood
 * pings, 100 abandoned handshakes per transport, 50 unauthenticated `/ws`
 * sockets sending a junk token then 15 x 64 KB, 10,000 `CONNECT` packets on one
 * engine.io connection. Each shape is bounded in bytes and time.
 */
export async function runFloods(port: number, token: () => string, stop: () => boolean): Promise<FloodTally> {
  const tally: FloodTally = { rounds: 0, byShape: {} };
  const note = (shape: string, sent: number, closed: number): void => {
    const entry = (tally.byShape[shape] ??= { runs: 0, sentMb: 0, closedByServer: 0 });
    entry.runs += 1;
    entry.sentMb = mb(entry.sentMb * 1024 * 1024 + sent);
    entry.closedByServer += closed;
  };
  while (!stop()) {
    const ws = await wsPingFlood(port, token());
    note('wsPingFloodUnread', ws.sent, ws.closed ? 1 : 0);
    // A breath between shapes: the steady load is measured beside the floods, not only behind them.
    await pause(1000);
    if (stop()) break;
    const io = await ioAckFlood(port, token());
    note('socketIoAckFloodUnread', io.sent, io.closed ? 1 : 0);
    await pause(1000);
    if (stop()) break;
    await abandoned(port, 100);
    note('abandonedHandshakes100PerTransport', 0, 0);
    const first = await firstMessageBytes(port, 50);
    note('firstMessageBytes50x15x64KB', first.sent, first.closed);
    await pause(1000);
    if (stop()) break;
    const connects = await repeatedConnects(port, token(), 10_000);
    note('repeatedConnect10000', connects.sent, connects.closed ? 1 : 0);
    tally.rounds += 1;
    await pause(1000);
  }
  return tally;
}
