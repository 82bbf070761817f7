// Each layer in front of the example app's `GET /api/me`, and the health router (what a request
// would pay if it were mounted in front too), called directly a million times on a
// real IncomingMessage (no socket, no body): the CPU a request pays to pass it, without the noise
// of a whole HTTP round trip. Complements bench/example-app-middleware.ts.
//
// Usage: npx tsx bench/example-app-layers.ts [--calls=1000000]
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { PlatformClient, silentLogger } from '../lib/index.js';
import { createApp } from '../example-app/create-app.js';

const CALLS = Number(process.argv.find((a) => a.startsWith('--calls='))?.split('=')[1] ?? '1000000');
const client = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's', gameId: 'g', logger: silentLogger });
const app = createApp({ client, adminMemberNos: [], logger: silentLogger });
type Handle = (req: IncomingMessage, res: ServerResponse, next: (err?: unknown) => void) => void;
interface Layer { name: string; route?: { path: string }; handle: Handle & { stack?: { route?: { path: string } }[] } }
const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
const meIndex = stack.findIndex((l) => l.route?.path === '/api/me');
const layers = [...stack.slice(0, meIndex), ...stack.filter((l) => l.handle.stack?.[0]?.route?.path === '/healthz')];

const req = new IncomingMessage(new Socket());
req.method = 'GET';
req.url = '/api/me';
req.headers = { host: 'localhost', authorization: 'Bearer abc' };
const res = new ServerResponse(req);

for (const layer of layers) {
  const label = layer.handle.stack?.[0]?.route?.path ?? layer.name;
  if (layer.handle.length === 4) {
    console.log(`${label.padEnd(28)} error handler: skipped by the router on a request without error`);
    continue;
  }
  let passed = 0;
  const next = (err?: unknown): void => {
    if (err !== undefined) throw err as Error;
    passed += 1;
  };
  const once = (): void => {
    req.url = '/api/me';
    layer.handle(req, res, next);
  };
  for (let i = 0; i < 100_000; i += 1) once();
  passed = 0;
  const started = process.cpuUsage();
  for (let i = 0; i < CALLS; i += 1) once();
  const used = process.cpuUsage(started);
  if (passed !== CALLS) throw new Error(`${label} did not call next synchronously (${passed} of ${CALLS})`);
  console.log(`${label.padEnd(28)} ${(((used.user + used.system) / CALLS) * 1000).toFixed(0)} ns per request`);
}
await client.close();
