import { Manager } from 'socket.io-client';
import { startTestEmulator, DEMO } from '../spec/support/client-harness.js';
import { startRealtimeServer } from '../spec/support/realtime-harness.js';
const emulator = await startTestEmulator();
const rt = await startRealtimeServer(emulator);
const manager = new Manager(rt.url, { transports: ['websocket'], reconnection: false, forceNew: true });
const socket = manager.socket('/', { auth: { token: emulator.login(DEMO.admin).access_token } });
await new Promise((resolve) => socket.once('session', resolve));
const [ss] = rt.io.of('/').sockets.values();
const conn: any = ss!.conn;
let reason: string | undefined; ss!.once('disconnect', (r) => (reason = r));
const ws: any = (manager.engine as any).transport.ws;
ws._socket.pause();
let sent = 0, id = 0; const t0 = performance.now();
while (sent < 15 * 1024 * 1024 && reason === undefined) {
  const parts: Buffer[] = [];
  for (let i = 0; i < 5000; i++) { const f = Buffer.from(`42${id++}["ping"]`); parts.push(Buffer.from([0x81, 0x80 | f.length, 0, 0, 0, 0]), f); sent += f.length + 6; }
  ws._socket.write(Buffer.concat(parts));
  await new Promise((r) => setImmediate(r));
  if (id % 100000 === 0) console.log(Math.round(performance.now() - t0), sent, conn.transport?.socket?.bufferedAmount, conn.writeBuffer.length, ws.bufferedAmount, Math.round(process.memoryUsage().heapUsed / 1e6));
}
console.log('end', reason, sent, Math.round(performance.now() - t0));
process.exit(0);
