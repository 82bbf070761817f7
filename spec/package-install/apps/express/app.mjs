// An Express-only app: the package with express, nothing else.
import express from 'express';
import { PlatformClient, platformErrorHandler, requireGameUser } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { check } from './check.mjs';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const app = express();
app.get('/api/me', requireGameUser({ client }), (req, res) => res.json({ member_no: req.user.memberNo }));
app.use(platformErrorHandler());
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
await check(`http://127.0.0.1:${server.address().port}`, emulator, DEFAULT_MEMBERS);
server.close();
client.close();
await emulator.close();
