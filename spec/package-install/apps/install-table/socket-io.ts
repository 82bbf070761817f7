// The Socket.IO row (server only, as the row installs): the auth middleware on every namespace,
// and a handshake without credentials refused with connect_error over the polling transport.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { PlatformClient, createAuthenticator } from 'passport-game-platform';
import { startEmulator } from 'passport-game-platform/emulator';
import { SessionRegistry } from 'passport-game-platform/realtime';
import { useSocketIoAuth } from 'passport-game-platform/socket.io';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client });
const server = createServer((_req, res) => { res.writeHead(404).end(); });
const io = new Server(server);
useSocketIoAuth(io, { authenticate, registry });
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/socket.io/?EIO=4&transport=polling`;
// Engine.IO open, then a Socket.IO CONNECT to "/" with no auth: the answer is a CONNECT_ERROR ("44").
const open = await (await fetch(base)).text();
const sid = (JSON.parse(open.slice(1)) as { sid: string }).sid;
await fetch(`${base}&sid=${sid}`, { method: 'POST', body: '40' });
const answer = await (await fetch(`${base}&sid=${sid}`)).text();
process.stdout.write(`${JSON.stringify({ 'connect_error login for none': answer.startsWith('44') && answer.includes('"login"') })}\n`);
registry.closeAll('shutdown');
await io.close();
await client.close();
await emulator.close();
