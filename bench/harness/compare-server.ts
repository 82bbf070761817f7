// A server process of bench/compare-builds.ts: the floor, or `requireGameUser` on one compiled
// copy of the library, on Express. Compiled to JavaScript with the copies and run by plain node,
// as an installed package runs: no loader transforms anything it runs.
//
// Arguments: --which=floor|<copy directory> --platform=<stub URL> [--grace=<outageGraceMs>]
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import express from 'express';
import type { Request, Response } from 'express';
import { answerCpuMeter } from './cpu-servers.js';
import { stubFloorRoute } from './floor-route.js';

const arg = (name: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? '';
const platform = arg('platform');
const which = arg('which');
const app = express();
app.disable('x-powered-by');
if (which === 'floor') {
  app.get('/api/me', await stubFloorRoute(platform));
} else {
  const lib = (await import(pathToFileURL(`${which}/index.js`).href)) as typeof import('../../lib/index.js');
  const grace = Number(arg('grace') || '0');
  const client = new lib.PlatformClient({
    baseUrl: platform, clientId: 'c', clientSecret: 's', gameId: 'demo-game', logger: lib.silentLogger, ...(grace > 0 ? { outageGraceMs: grace } : {}),
  });
  app.get('/api/me', lib.requireGameUser({ client }), (req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store').json({ member_no: req.user!.memberNo, guid: req.user!.guid });
  });
  app.use(lib.platformErrorHandler());
}
// Idle longer than a round of the other servers: the load's keep-alive sockets stay open.
const server = createServer({ keepAliveTimeout: 120_000 }, app);
server.listen(0, '127.0.0.1', () => answerCpuMeter((server.address() as AddressInfo).port, () => {
  server.closeAllConnections();
  server.close(() => process.exit(0));
}));
