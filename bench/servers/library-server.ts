// `library`: the package alone on Express. `requireGameUser` and `platformErrorHandler` on a bare
// Express app (no body parsers, no other middleware) with one PlatformClient, default options.
import express from 'express';
import { PlatformClient, platformErrorHandler, requireGameUser } from '../../lib/index.js';
import { requireEnv, serveHttp } from './server-kit.js';

const client = new PlatformClient({
  baseUrl: requireEnv('PLATFORM_BASE_URL'),
  clientId: requireEnv('PLATFORM_CLIENT_ID'),
  clientSecret: requireEnv('PLATFORM_CLIENT_SECRET'),
  gameId: requireEnv('PLATFORM_GAME_ID'),
});
const app = express();
app.disable('x-powered-by');
app.get('/api/me', requireGameUser({ client }), (req, res) => {
  res.set('Cache-Control', 'no-store').json({ member_no: req.user!.memberNo, guid: req.user!.guid });
});
app.use(platformErrorHandler());

await serveHttp(app, undefined, () => void client.close());
