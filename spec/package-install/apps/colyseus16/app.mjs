// A Colyseus 0.16 app (the previous major): the token in the join options
// joins and gets `session`; a token in the URL is refused with 4401 login.
import { createServer } from 'node:http';
import { Room, Server } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Client } from 'colyseus.js';
import { createAuthenticator, PlatformClient } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { gamePlatformRoomAuth } from 'passport-game-platform/colyseus';
import { SessionRegistry } from 'passport-game-platform/realtime';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const authenticate = createAuthenticator(client);
const registry = new SessionRegistry({ authenticate, events: client });
const http = createServer();
const transport = new WebSocketTransport({ server: http });
const auth = gamePlatformRoomAuth({ authenticate, registry, transport });
class Lobby extends Room {
  onCreate() { auth.register(this); }
  onAuth(c, options, context) { return auth.onAuth(c, options, context); }
}
class SessionClient extends Client {
  createRoom(name, schema) {
    const room = super.createRoom(name, schema);
    this.session = new Promise((resolve) => room.onMessage('session', resolve));
    return room;
  }
}
const quiet = () => undefined;
const gameServer = new Server({ transport, greet: false, logger: { debug: quiet, info: quiet, warn: quiet, error: quiet, log: quiet, trace: quiet } });
gameServer.define('lobby', Lobby);
await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
const url = `ws://127.0.0.1:${http.address().port}`;
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const sdk = new SessionClient(url);
const room = await sdk.joinOrCreate('lobby', { token });
const session = await sdk.session;
await room.leave();
const outcome = (p) => p.then(() => ({ code: 0, message: 'joined' }), (err) => ({ code: err.code, message: err.message }));
const urlClient = new Client(url);
urlClient.auth.token = token;
const urlToken = await outcome(urlClient.joinOrCreate('lobby', {}));
const bothClient = new Client(url, { headers: { authorization: `Bearer ${token}` } });
bothClient.auth.token = token;
const urlAndHeader = await outcome(bothClient.joinOrCreate('lobby', {}));
process.stdout.write(`${JSON.stringify({ session, urlToken, urlAndHeader })}\n`);
process.exit(0);
