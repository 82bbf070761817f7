import { randomBytes } from 'node:crypto';
import { io as ioClient } from 'socket.io-client';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { openIo, startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

const ABANDONED = 150;
const SLOTS = 16;
const SPREAD = 200;
const ARRIVALS_PER_S = 100;

// A handshake whose client has gone must not keep its platform call, nor its
// place in the call limiter, until the platform answers: otherwise a burst of
// abandoned handshakes queues real players behind calls for nobody.
describe('Socket.IO handshakes abandoned before the answer', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { config: { timeoutMs: 5000, totalTimeoutMs: 30_000, maxConcurrentCalls: SLOTS } });
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });

  it(`${ABANDONED} handshakes gone after 300 ms against a 2 s platform: their calls are cancelled and a player gets in`, async () => {
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 2000, count: Infinity });
    emulator.clearRequests();
    const clients = Array.from({ length: ABANDONED }, () =>
      ioClient(rt.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token: randomBytes(32).toString('base64url') } }),
    );
    // Every handshake is waiting for the platform (in flight or queued for a slot) before its client goes.
    await until(() => rt.client.load.active + rt.client.load.queued >= ABANDONED, 60_000, 'every handshake at the platform');
    for (const client of clients) client.close();
    const player = await openIo(rt.url, { token: emulator.login(DEMO.admin).access_token });
    expect(player.session).toEqual({ member_no: DEMO.admin, guid: DEMO.adminGuid });
    player.socket.close();
    // Nothing left in flight or waiting: every call the handshakes will ever cost has been made.
    await until(() => rt.client.load.active === 0 && rt.client.load.queued === 0, 30_000, 'no platform call left');
    // Proportional to 200 calls for 500 abandoned handshakes; without cancelling, every one of them is called.
    expect(emulator.requests({ endpoint: 'E2' }).length).toBeLessThanOrEqual(Math.round((ABANDONED * 200) / 500));
    await until(() => rt.registry.size === 0, 15_000, 'the player to leave');
  }, 120_000); // 150 sockets opened one by one on a busy machine, then the 2 s platform


  it(`${SPREAD} handshakes arriving over ${SPREAD / ARRIVALS_PER_S} s on the default transports, each gone after 300 ms: only the first ${SLOTS} and those present when a slot frees are called`, async () => {
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 2000, count: Infinity });
    emulator.clearRequests();
    const closed: Promise<void>[] = [];
    // Polling first, as browsers connect: each handshake reaches the server on its own, never as a burst.
    for (let i = 0; i < SPREAD; i++) {
      const client = ioClient(rt.url, { reconnection: false, forceNew: true, auth: { token: randomBytes(32).toString('base64url') } });
      client.on('connect_error', () => undefined);
      closed.push(new Promise((resolve) => setTimeout(() => resolve(void client.close()), 300)));
      await new Promise((resolve) => setTimeout(resolve, 1000 / ARRIVALS_PER_S));
    }
    await Promise.all(closed);
    await until(() => rt.client.load.active === 0 && rt.client.load.queued === 0, 30_000, 'no platform call left');
    // The slots stay counted while the platform answers for nobody: a freed slot would start the
    // call of the next client to leave, and every one of them would be called.
    expect(emulator.requests({ endpoint: 'E2' }).length).toBeLessThanOrEqual(Math.round((SPREAD * 200) / 500));
    expect(rt.registry.size).toBe(0);
  }, 120_000);
});
