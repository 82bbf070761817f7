// A user's Express + Passport app, compiled under strict WITHOUT skipLibCheck against the packed
// package, once with Express 4 and @types/express 4 and once with Express 5 and its types; then run.
import express, { type NextFunction, type Request, type Response } from 'express';
import passport from 'passport';
import {
  PlatformBearerStrategy,
  PlatformClient,
  createAuthenticator,
  isPlatformError,
  platformErrorHandler,
  problemResponse,
  requireGameUser,
  type GameUser,
} from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { SimulatedClient } from 'passport-game-platform/testkit';
import { check } from './check.mjs';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });

passport.use(new PlatformBearerStrategy({ client, mapUser: (user: GameUser) => ({ tag: `m${user.memberNo}` }) }));
const app = express();
app.use(passport.initialize());

app.get('/api/me', requireGameUser({ client }), (req: Request, res: Response) => {
  const memberNo: string = req.user!.memberNo; // typed by declaration merging
  const guid: string | null = req.user!.guid;
  res.json({ member_no: memberNo, guid });
});
app.get('/api/passport', passport.authenticate('game-platform', { session: false, failWithError: true }), (req: Request, res: Response) => {
  res.json({ member_no: req.user!.memberNo });
});

const authenticate = createAuthenticator(client, { realm: 'my-game' });
app.get('/api/core', (req: Request, res: Response, next: NextFunction) => {
  authenticate(req).then((user) => res.json({ member_no: user.memberNo }), (err: unknown) => {
    if (!isPlatformError(err)) return next(err);
    const { status, headers, body } = problemResponse(err);
    res.status(status).set(headers).json(body);
  });
});
app.use(platformErrorHandler());

const simulated: SimulatedClient = new SimulatedClient({ emulatorUrl: emulator.url, clock: emulator });
void simulated;

const server = app.listen(0, '127.0.0.1');
await new Promise<void>((resolve) => server.once('listening', () => resolve()));
const address = server.address();
if (address === null || typeof address === 'string') throw new Error('no port');
await check(`http://127.0.0.1:${address.port}`, emulator, DEFAULT_MEMBERS);
await new Promise<void>((resolve) => server.close(() => resolve()));
await client.close();
await emulator.close();
