// The ws row: an authenticated upgrade gets `session`, one without credentials is refused.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket from 'ws';
import { PlatformClient, createAuthenticator } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { SessionRegistry } from 'passport-game-platform/realtime';
import { attachWebSocket } from 'passport-game-platform/ws';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client });
const server = createServer((_req, res) => { res.writeHead(404).end(); });
const ws = attachWebSocket(server, { authenticate, registry, path: '/ws', firstMessage: false });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}/ws`;
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const session = await new Promise<string>((resolve, reject) => {
  const socket = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
  socket.once('message', (data) => { socket.close(); resolve((JSON.parse(String(data)) as { type: string }).type); });
  socket.once('error', reject);
});
const none = await new Promise<number>((resolve) => {
  const socket = new WebSocket(url);
  socket.on('error', () => undefined); // the refusal, reported as an error too once terminated
  socket.once('unexpected-response', (_req, res) => { resolve(res.statusCode ?? 0); socket.terminate(); });
  socket.once('open', () => resolve(101));
});
process.stdout.write(`${JSON.stringify({ 'session for a valid token': session === 'session', '401 for none': none === 401 })}\n`);
registry.closeAll('shutdown');
ws.close();
server.close();
await client.close();
await emulator.close();
