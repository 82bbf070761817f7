// The Express + Passport row: the bearer strategy through passport.authenticate.
import type { AddressInfo } from 'node:net';
import express from 'express';
import passport from 'passport';
import { PlatformBearerStrategy, PlatformClient, platformErrorHandler } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
passport.use(new PlatformBearerStrategy({ client }));
const app = express();
app.get('/api/me', passport.authenticate('game-platform', { session: false, failWithError: true }), (req, res) => {
  res.json({ member_no: req.user!.memberNo });
});
app.use(platformErrorHandler());
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/me`;
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const valid = (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
const none = (await fetch(url)).status;
process.stdout.write(`${JSON.stringify({ '200 for a valid token': valid === 200, '401 for none': none === 401 })}\n`);
server.close();
await client.close();
await emulator.close();
