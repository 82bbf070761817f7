// `npx tsx bench/ws-floods.ts`: the memory and platform-call figures of the `/ws` bounds, against
// a server in its own process (bench/ws-floods/server-process.ts), loopback only:
// - one logged-in client that stops reading and sends 15 MB of pings: the server's growth;
// - 300 first-message sockets that each send 16 x 64 KB while the platform takes 5 s: growth;
// - 500 upgrades with junk tokens whose clients leave after 300 ms, platform answering in 2 s:
//   E2 calls made, and how long a player asking meanwhile waits;
// - the same with 500 Socket.IO handshakes on the default transports (polling first), which reach
//   the server one by one rather than as a burst.
// Prints one JSON object.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { io as ioClient } from 'socket.io-client';
import WebSocket from 'ws';

const child = spawn(process.execPath, ['--expose-gc', '--import', 'tsx', 'bench/ws-floods/server-process.ts'], { stdio: ['ignore', 'pipe', 'inherit'] });
process.on('exit', () => child.kill());
const port = await new Promise<number>((resolve) => {
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    const found = /WS_FLOODS_READY port=(\d+)/.exec(text);
    if (found) resolve(Number(found[1]));
  });
});
const base = `http://127.0.0.1:${port}`;
child.on('exit', (code, signal) => process.stderr.write(`ws-floods: server exited (${code ?? signal})\n`));
// A fresh connection per control call: a kept-alive one may be reset under the flood.
const control = async <T>(path: string): Promise<T> => (await (await fetch(`${base}${path}`, { headers: { connection: 'close' } })).json()) as T;
const mem = (): Promise<{ rssBytes: number; heapBytes: number; externalBytes: number; live: number; pending: number; calls: { active: number; queued: number } }> => control('/mem');
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
const MB = 1_048_576;

async function pingFlood(): Promise<Record<string, unknown>> {
  const before = await mem();
  const { token } = await control<{ token: string }>('/token');
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise((resolve) => ws.once('message', resolve));
  (ws as unknown as { _socket: Socket })._socket.pause();
  let closedAtBytes: number | undefined;
  const ping = JSON.stringify({ type: 'ping' });
  let sent = 0;
  let peakRss = before.rssBytes;
  const open = (): boolean => ws.readyState === WebSocket.OPEN;
  // Until 15 MB are sent, or the server ended the connection (then nothing more reaches it).
  while (sent < 15_000_000 && open()) {
    for (let i = 0; i < 5000; i += 1) ws.send(ping);
    sent += 5000 * ping.length;
    while (ws.bufferedAmount > MB && open()) await sleep(5);
    const now = await mem();
    peakRss = Math.max(peakRss, now.rssBytes);
    if (closedAtBytes === undefined && now.live === 0) closedAtBytes = sent;
  }
  const after = await mem();
  ws.terminate();
  return { sentBytes: sent, closedAfterSentBytes: closedAtBytes ?? null, rssGrowthMB: (peakRss - before.rssBytes) / MB, heapGrowthMB: (after.heapBytes - before.heapBytes) / MB };
}

async function firstMessageFlood(): Promise<Record<string, unknown>> {
  await control('/latency?ms=5000');
  await control('/clear');
  const { token } = await control<{ token: string }>('/token');
  const before = await mem();
  const chunk = JSON.stringify({ type: 'note', text: 'x'.repeat(64_000) });
  const sockets = await Promise.all(Array.from({ length: 300 }, () => new Promise<WebSocket>((resolve) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    ws.on('error', () => undefined);
    ws.once('open', () => {
      ws.send(JSON.stringify({ type: 'auth', token }));
      for (let i = 0; i < 16; i += 1) ws.send(chunk);
      resolve(ws);
    });
  })));
  await sleep(1500);
  const during = await mem();
  const closed = sockets.filter((ws) => ws.readyState !== WebSocket.OPEN).length;
  for (const ws of sockets) ws.terminate();
  await control('/latency?ms=0');
  const { calls } = await control<{ calls: number }>('/e2');
  return { sockets: 300, closedByServer: closed, e2Calls: calls, rssGrowthMB: (during.rssBytes - before.rssBytes) / MB, heapGrowthMB: (during.heapBytes - before.heapBytes) / MB, externalGrowthMB: (during.externalBytes - before.externalBytes) / MB };
}

async function abandonedUpgrades(): Promise<Record<string, unknown>> {
  await control('/latency?ms=2000');
  await control('/clear');
  const sockets: Socket[] = [];
  for (let i = 0; i < 500; i += 1) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write('GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nAuthorization: Bearer ${randomBytes(24).toString('base64url')}\r\n\r\n`);
    sockets.push(socket);
  }
  await sleep(300);
  const atLeave = (await control<{ calls: number }>('/e2')).calls;
  for (const socket of sockets) socket.end();
  const { token } = await control<{ token: string }>('/token');
  const started = performance.now();
  const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`, { headers: { Authorization: `Bearer ${token}` } });
  await new Promise((resolve) => ws.once('message', resolve));
  const playerMs = performance.now() - started;
  ws.close();
  await sleep(2500);
  const { calls } = await control<{ calls: number }>('/e2');
  for (const socket of sockets) socket.destroy();
  await control('/latency?ms=0');
  return { upgrades: 500, e2CallsWhenClientsLeft: atLeave, e2Calls: calls - 1, playerServedMs: Math.round(playerMs) };
}

async function abandonedHandshakes(): Promise<Record<string, unknown>> {
  await control('/latency?ms=2000');
  await control('/clear');
  const left: Promise<void>[] = [];
  for (let i = 0; i < 500; i += 1) {
    const socket = ioClient(base, { reconnection: false, forceNew: true, auth: { token: randomBytes(24).toString('base64url') } });
    socket.on('connect_error', () => undefined);
    left.push(sleep(300).then(() => void socket.close()));
  }
  // A player connects behind the handshakes, while they are still arriving and leaving.
  const { token } = await control<{ token: string }>('/token');
  const started = performance.now();
  const player = ioClient(base, { reconnection: false, forceNew: true, auth: { token } });
  await new Promise((resolve, reject) => {
    player.once('session', resolve);
    player.once('connect_error', reject);
  });
  const playerMs = performance.now() - started;
  player.close();
  await Promise.all(left);
  // Every call the handshakes will ever cost has been made once nothing is in flight or queued.
  for (;;) {
    const { calls } = await mem();
    if (calls.active === 0 && calls.queued === 0) break;
    await sleep(200);
  }
  const { calls } = await control<{ calls: number }>('/e2');
  await control('/latency?ms=0');
  return { handshakes: 500, e2Calls: calls - 1, playerServedMs: Math.round(playerMs) };
}

const only = process.argv[2];
const result = {
  ...(only === undefined || only === 'ping' ? { pingFlood: await pingFlood() } : {}),
  ...(only === undefined || only === 'first' || only === 'first+upgrades' ? { firstMessage: await firstMessageFlood() } : {}),
  ...(only === undefined || only === 'upgrades' || only === 'first+upgrades' ? { abandonedUpgrades: await abandonedUpgrades() } : {}),
  ...(only === undefined || only === 'handshakes' ? { abandonedHandshakes: await abandonedHandshakes() } : {}),
};
process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
child.kill();
process.exit(0);
