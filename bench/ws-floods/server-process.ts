// The server side of bench/ws-floods.ts: the emulator, a `/ws` endpoint and Socket.IO in one
// process (the emulator's share of memory is constant), plus a small control route for the
// driver: forced-GC memory, latency faults, tokens and the E2 call count.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAuthenticator } from '../../lib/auth/index.js';
import { DEFAULT_SEED, startEmulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import { useSocketIoAuth } from '../../lib/socket-io/index.js';
import { attachWebSocket } from '../../lib/ws/index.js';
import { Server as IoServer } from 'socket.io';

const seedClient = DEFAULT_SEED.clients[0]!;
const emulator = await startEmulator();
const client = new PlatformClient({
  baseUrl: emulator.url,
  clientId: seedClient.client_id,
  clientSecret: seedClient.client_secret,
  gameId: seedClient.service_id,
  timeoutMs: 10_000,
  totalTimeoutMs: 20_000,
  retries: 0,
});
await client.provider.getToken();
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client, reverifyIntervalMs: 0 });

function memory(): { rssBytes: number; heapBytes: number; externalBytes: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed, external, arrayBuffers } = process.memoryUsage();
  return { rssBytes: rss, heapBytes: heapUsed, externalBytes: external + arrayBuffers };
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://x');
  let body: unknown = {};
  switch (url.pathname) {
    case '/mem':
      body = { ...memory(), live: registry.size, pending: wsAdapter.pending, calls: client.load };
      break;
    case '/latency':
      emulator.clearFaults();
      if (Number(url.searchParams.get('ms')) > 0) emulator.injectFault({ type: 'latency', latencyMs: Number(url.searchParams.get('ms')), endpoint: 'E2', count: Infinity });
      break;
    case '/token':
      body = { token: emulator.login('20005061986').access_token };
      break;
    case '/e2':
      body = { calls: emulator.requests({ endpoint: 'E2' }).length };
      break;
    case '/clear':
      emulator.clearRequests();
      break;
    default:
      res.writeHead(404).end();
      return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
const wsAdapter = attachWebSocket(server, { authenticate, registry, path: '/ws', firstMessageTimeoutMs: 60_000 });
// engine.io would otherwise destroy any other upgrade (our /ws) still unanswered after 1 s.
useSocketIoAuth(new IoServer(server, { destroyUpgrade: false }), { authenticate, registry });
server.listen(0, '127.0.0.1', () => process.stdout.write(`WS_FLOODS_READY port=${(server.address() as AddressInfo).port}\n`));
