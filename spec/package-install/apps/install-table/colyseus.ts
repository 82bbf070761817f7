// The Colyseus row (server only, as the row installs): a room with the onAuth helper is served
// (a seat is reserved; onAuth runs when the client's socket joins, which needs the SDK).
import { createServer } from 'node:http';
import { Room, Server, type AuthContext, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { PlatformClient, createAuthenticator, type GameUser } from 'passport-game-platform';
import { startEmulator } from 'passport-game-platform/emulator';
import { gamePlatformRoomAuth } from 'passport-game-platform/colyseus';
import { SessionRegistry } from 'passport-game-platform/realtime';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client });
const auth = gamePlatformRoomAuth({ authenticate, registry });
class Lobby extends Room {
  override onCreate(): void {
    auth.register(this);
  }
  override onAuth(c: Client, options: unknown, context: AuthContext): Promise<GameUser> {
    return auth.onAuth(c, options, context);
  }
}
const http = createServer();
const gameServer = new Server({ transport: new WebSocketTransport({ server: http }), greet: false });
gameServer.define('lobby', Lobby);
await gameServer.listen(0, '127.0.0.1');
const port = (http.address() as { port: number }).port;
const rooms = await fetch(`http://127.0.0.1:${port}/matchmake/joinOrCreate/lobby`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
process.stdout.write(`${JSON.stringify({ 'a seat is reserved in the room': rooms.status === 200 })}\n`);
registry.closeAll('shutdown');
await client.close();
await emulator.close();
process.exit(0);
