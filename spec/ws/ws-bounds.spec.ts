import { randomBytes } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import WebSocket from 'ws';
import { createAuthenticator } from '../../lib/auth/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient, type PlatformConfig } from '../../lib/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import { CHANNELS, type ConnectionMessage } from '../../lib/diagnostics/channels.js';
import { attachWebSocket, type AttachedWebSocket, type WebSocketAuthOptions } from '../../lib/ws/index.js';
import { configFor, DEMO, startTestEmulator } from '../support/client-harness.js';
import { openWs, probeWs } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

/** A `/ws` endpoint alone, with the adapter options under test. */
interface WsServer {
  url: string;
  port: number;
  client: PlatformClient;
  registry: SessionRegistry;
  adapter: AttachedWebSocket;
  /** TCP connections the server holds now. */
  connections(): Promise<number>;
  close(): Promise<void>;
}

async function startWs(emulator: Emulator, options: Partial<WebSocketAuthOptions> = {}, config: Partial<PlatformConfig> = {}): Promise<WsServer> {
  const client = new PlatformClient(configFor(emulator, config));
  const authenticate = createAuthenticator(client);
  const registry = new SessionRegistry({ authenticate, events: client, reverifyIntervalMs: 0 });
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  const adapter = attachWebSocket(server, { authenticate, registry, path: '/ws', ...options });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `ws://127.0.0.1:${port}/ws`,
    port,
    client,
    registry,
    adapter,
    connections: () => new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count)))),
    async close(): Promise<void> {
      registry.closeAll('shutdown');
      adapter.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await client.close();
    },
  };
}

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });
const opened = (ws: WebSocket): Promise<unknown> => new Promise((resolve) => ws.once('open', resolve));

describe('ws adapter bounds', () => {
  let emulator: Emulator;
  let ws: WsServer | undefined;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterEach(async () => {
    emulator.clearFaults();
    emulator.clearRequests();
    await ws?.close();
    ws = undefined;
  });
  afterAll(() => emulator.close());

  describe('what we queue for a client that stops reading', () => {
    const BOUND = 64 * 1024;

    // A game that pushes 4 KB of state with each pong fills the kernel's socket
    // buffers within about a thousand pings, so the bound is reached in a
    // second (pongs alone need a few hundred thousand; the bench measures that).
    const STATE = JSON.stringify({ type: 'state', board: 'x'.repeat(4096) });

    it('closes a ping flooder that reads nothing once what we queued for it passes the bound, long before 15 MB of pings', async () => {
      const onConnection = (socket: WebSocket): void => {
        socket.on('message', () => socket.readyState === WebSocket.OPEN && socket.send(STATE));
      };
      const server = (ws = await startWs(emulator, { maxBufferedBytes: BOUND, onConnection }));
      const probe = await openWs(server.url, bearer(emulator.login(DEMO.admin).access_token));
      const ends: ConnectionMessage[] = [];
      const onEnd = (message: unknown): void => void ends.push(message as ConnectionMessage);
      diagnosticsChannel.subscribe(CHANNELS.connection, onEnd);
      // The adapter's own socket: what it holds for the flooder is sampled at each message it reads.
      const [serverSide] = [...server.adapter.wss.clients];
      let peak = 0;
      let serverClosed = false;
      serverSide!.on('message', () => {
        peak = Math.max(peak, serverSide!.bufferedAmount);
      });
      // Its close frame waits behind what it does not read: closing has begun once it is no longer OPEN.
      const closing = (): boolean => (serverClosed ||= serverSide!.readyState !== WebSocket.OPEN);
      // The flooder stops reading: nothing it is sent leaves the server's side once the kernel buffers are full.
      (probe.ws as unknown as { _socket: Socket })._socket.pause();
      const ping = JSON.stringify({ type: 'ping' });
      let sent = 0;
      while (!closing() && sent < 15_000_000) {
        for (let i = 0; i < 500; i += 1) probe.ws.send(ping);
        sent += 500 * ping.length;
        await new Promise((resolve) => setImmediate(resolve));
        await until(() => probe.ws.bufferedAmount < 1_000_000 || closing(), 15_000, 'the server to read our pings');
      }
      await until(closing, 15_000, 'the flooder closed by the server');
      expect(sent).toBeLessThan(15_000_000);
      // The bound plus what one ping made us write at most (its pong and the state push).
      expect(peak).toBeLessThanOrEqual(BOUND + STATE.length + 64);
      try {
        probe.ws.terminate();
        await until(() => server.registry.size === 0, 15_000, 'the flooder forgotten');
      } finally {
        diagnosticsChannel.unsubscribe(CHANNELS.connection, onEnd);
      }
      // Counted among the sessions this instance ended: for breaking a bound.
      expect(ends).toEqual([expect.objectContaining({ reason: 'bound', ended: 'bound' })]);
    }, 30_000);

    it('keeps a client that reads, however many pings it sends', async () => {
      ws = await startWs(emulator, { maxBufferedBytes: BOUND });
      const probe = await openWs(ws.url, bearer(emulator.login(DEMO.admin).access_token));
      for (let i = 0; i < 5000; i += 1) probe.ws.send(JSON.stringify({ type: 'ping' }));
      await until(() => probe.messages.filter((m) => m.type === 'pong').length === 5000, 15_000, '5,000 pongs');
      expect(probe.ws.readyState).toBe(WebSocket.OPEN);
      probe.ws.close();
      await probe.closed;
    });
  });

  describe('heartbeat', () => {
    it('pings every connection each interval and terminates one that answers no ping', async () => {
      ws = await startWs(emulator, { heartbeatIntervalMs: 100 });
      const token = emulator.login(DEMO.admin).access_token;
      const silent = probeWs(new WebSocket(ws.url, { headers: bearer(token), autoPong: false }));
      const alive = await openWs(ws.url, bearer(token));
      await silent.next('session');
      let pings = 0;
      alive.ws.on('ping', () => (pings += 1));
      const { code } = await silent.closed;
      // Terminated, not closed: it would not read a close frame either.
      expect(code).toBe(1006);
      await until(() => pings >= 3, 15_000, 'three heartbeats on the live connection');
      expect(alive.ws.readyState).toBe(WebSocket.OPEN);
      expect(ws.registry.size).toBe(1);
      alive.ws.close();
      await alive.closed;
    });

    it('also reaches a socket still waiting for its first message', async () => {
      ws = await startWs(emulator, { heartbeatIntervalMs: 100, firstMessageTimeoutMs: 60_000 });
      const silent = probeWs(new WebSocket(ws.url, { autoPong: false }));
      await opened(silent.ws);
      expect((await silent.closed).code).toBe(1006);
      const server = ws;
      await until(() => server.adapter.pending === 0, 15_000, 'the wait given up');
    });

    it('refuses a bad heartbeatIntervalMs', async () => {
      const client = new PlatformClient(configFor(emulator));
      const authenticate = createAuthenticator(client);
      const registry = new SessionRegistry({ authenticate, reverifyIntervalMs: 0 });
      expect(() => attachWebSocket(createServer(), { authenticate, registry, heartbeatIntervalMs: -1 })).toThrow(/heartbeatIntervalMs/);
      expect(() => attachWebSocket(createServer(), { authenticate, registry, maxBufferedBytes: 0 })).toThrow(/maxBufferedBytes/);
      await client.close();
    });
  });

  describe('upgrades abandoned before the answer', () => {
    // Scaled from 500 upgrades against 64 platform slots: 150 against 16 slots,
    // at most 40% of them reach the platform.
    const UPGRADES = 150;
    const SLOTS = 16;

    it(`${UPGRADES} upgrades whose clients leave after 300 ms cost at most ${UPGRADES * 0.4} E2 calls, and a player asking meanwhile is served within 5 s`, async () => {
      ws = await startWs(emulator, {}, { maxConcurrentCalls: SLOTS, retries: 0 });
      await ws.client.provider.getToken();
      emulator.injectFault({ type: 'latency', latencyMs: 2000, endpoint: 'E2', count: Infinity });
      const sockets: Socket[] = [];
      for (let i = 0; i < UPGRADES; i += 1) {
        const socket = connect(ws.port, '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(
          'GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n' +
            `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nAuthorization: Bearer ${randomBytes(24).toString('base64url')}\r\n\r\n`,
        );
        sockets.push(socket);
      }
      const server = ws;
      await until(() => server.adapter.pending === UPGRADES, 15_000, 'every upgrade being verified');
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Each client goes (a FIN: the server's side stays half open).
      for (const socket of sockets) socket.end();
      await until(() => server.adapter.pending === 0, 15_000, 'every abandoned upgrade given up');
      const player = await openWs(server.url, bearer(emulator.login(DEMO.admin).access_token));
      expect(emulator.requests({ endpoint: 'E2' }).length).toBeLessThanOrEqual(UPGRADES * 0.4);
      player.ws.close();
      await player.closed;
      for (const socket of sockets) socket.destroy();
    }, 30_000);
  });

  describe('first-message mode', () => {
    it('closes 1008 too_many_bytes when the messages waiting for the authentication pass 16 KiB, however few', async () => {
      ws = await startWs(emulator);
      const probe = probeWs(new WebSocket(ws.url));
      await opened(probe.ws);
      // The platform holds its answer until the messages have all arrived.
      emulator.injectFault({ type: 'hold', endpoint: 'E2', count: 1 });
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      // Three messages of 6,000 bytes: the third passes the default 16,384.
      const filler = JSON.stringify({ type: 'note', text: 'x'.repeat(6000 - 27) });
      for (let i = 0; i < 3; i += 1) probe.ws.send(filler);
      expect(await probe.closed).toEqual({ code: 1008, reason: 'too_many_bytes' });
      expect(probe.messages).toEqual([]);
      expect(ws.adapter.pending).toBe(0);
      emulator.releaseHeld();
    });

    it('cuts a peer closed for the bound off without waiting for its close frame', async () => {
      ws = await startWs(emulator);
      const flooder = new WebSocket(ws.url);
      flooder.on('error', () => undefined);
      await opened(flooder);
      emulator.injectFault({ type: 'latency', latencyMs: 5000, endpoint: 'E2', count: 1 });
      flooder.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      const filler = JSON.stringify({ type: 'note', text: 'x'.repeat(64_000) });
      for (let i = 0; i < 16; i += 1) flooder.send(filler);
      // The flooder reads nothing more: it never sees our close frame, so it never answers it.
      flooder.pause();
      await until(() => ws!.adapter.pending === 0, 15_000, 'the close for the bound');
      // A well-behaved close waits 5 s for the peer's close frame; a peer closed for a bound gets
      // 250 ms. Raced against a 5 s timer started now, so a slow machine slows both alike.
      const politeClose = new Promise((resolve) => void setTimeout(resolve, 5000, 'the polite close timeout').unref()).then(String);
      const cut = until(async () => (await ws!.connections()) === 0, 15_000, 'the connection cut').then(() => 'cut');
      expect(await Promise.race([cut, politeClose])).toBe('cut');
      flooder.terminate();
    });

    it('keeps what fits under the bound and plays it once authenticated', async () => {
      ws = await startWs(emulator, { maxPreAuthBytes: 1000 });
      const probe = probeWs(new WebSocket(ws.url));
      await opened(probe.ws);
      emulator.injectFault({ type: 'latency', latencyMs: 200, endpoint: 'E2', count: 1 });
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      for (let i = 0; i < 10; i += 1) probe.ws.send(JSON.stringify({ type: 'ping' }));
      await until(() => probe.messages.filter((m) => m.type === 'pong').length === 10, 15_000, 'ten pongs');
      probe.ws.close();
      await probe.closed;
    });
  });
});
