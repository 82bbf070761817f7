// What each middleware in front of the example app's `GET /api/me` costs: server CPU per request
// of the app as `createApp` builds it, then with one middleware taken out of the router's stack
// at a time, and with the metrics collection `server.ts` adds. Each variant is a server process
// of its own (a channel subscription of one never reaches another), the platform a stub in
// another, the load generated here (keep-alive, 32 in flight). CPU time of the server process,
// rounds alternating; the least of the rounds is the figure least disturbed by other processes.
//
// Usage: npx tsx bench/example-app-middleware.ts [--requests=20000] [--rounds=5] [--no-cache]
//   [--variants=full,-json,...]  (`+etag`, `+router`: what the app would cost with Express's default
//   ETag, or with `/api/me` in a Router of its own)
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { answerCpuMeter, forkCpuServer, KeepAliveLoad } from './harness/cpu-servers.js';
import type { CpuServer } from './harness/cpu-servers.js';
import { startStubPlatform } from './harness/stub-platform.js';
import type { RequestHandler } from 'express';

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;

/** Layers of `createApp`'s router taken out, by name (a Router's layer by the first route it holds). */
const VARIANTS: Record<string, { remove: string[]; metrics?: 'collected' | 'served'; etag?: true; ownRouter?: true }> = {
  full: { remove: [] },
  '-json': { remove: ['jsonParser'] },
  '-urlencoded': { remove: ['urlencodedParser'] },
  '-dropRawBody': { remove: ['dropRawBodyFromParseErrors'] },
  '-health': { remove: ['/healthz'] },
  bare: { remove: ['jsonParser', 'urlencodedParser', 'dropRawBodyFromParseErrors', '/healthz'] },
  '+metrics': { remove: [], metrics: 'collected' },
  '+metrics-token': { remove: [], metrics: 'served' },
  // What the app chose against: Express's default ETag (a SHA-1 of every body), and `/api/me` in a
  // Router of its own mounted where the route is.
  '+etag': { remove: [], etag: true },
  '+router': { remove: [], ownRouter: true },
};
const METRICS_TOKEN = 'bench-metrics-token-0123456789';

interface Layer { name: string; route?: Route; handle: { stack?: { route?: { path: string } }[] } }
interface Route { path: string; stack: { method?: string; handle: RequestHandler }[] }

if (process.argv.includes('--serve')) {
  // A server process: the example app of one variant.
  const { createApp } = await import('../example-app/create-app.js');
  const { PlatformClient, silentLogger } = await import('../lib/index.js');
  const { Registry, collectDefaultMetrics } = await import('prom-client');
  const { createServer } = await import('node:http');
  const variant = VARIANTS[arg('variant', 'full')]!;
  const cache = process.argv.includes('--no-cache') ? {} : { cache: { ttlMs: 60_000 } };
  const client = new PlatformClient({ baseUrl: arg('platform', ''), clientId: 'c', clientSecret: 's', gameId: 'demo-game', logger: silentLogger, ...cache });
  // As server.ts builds it when /metrics is served somewhere.
  const metrics = new Registry();
  if (variant.metrics !== undefined) collectDefaultMetrics({ register: metrics });
  const app = createApp({
    client, adminMemberNos: [], logger: silentLogger,
    ...(variant.metrics === undefined ? {} : { metrics, metricsToken: variant.metrics === 'served' ? METRICS_TOKEN : null }),
  });
  const stack = (app as unknown as { router: { stack: Layer[] } }).router.stack;
  const label = (layer: Layer): string => layer.handle.stack?.[0]?.route?.path ?? layer.name;
  for (const name of variant.remove) {
    const index = stack.findIndex((layer) => label(layer) === name);
    if (index < 0) throw new Error(`no layer ${name} in ${stack.map(label).join(', ')}`);
    stack.splice(index, 1);
  }
  if (variant.etag === true) app.set('etag', true);
  if (variant.ownRouter === true) {
    const { Router } = await import('express');
    const index = stack.findIndex((layer) => layer.route?.path === '/api/me' && layer.route.stack.some((l) => l.method === 'get'));
    const router = Router();
    router.get('/api/me', ...stack[index]!.route!.stack.map((l) => l.handle));
    app.use(router); // appended to the stack: moved to where the route was
    stack.splice(index, 1, stack.pop()!);
  }
  const server = createServer(app).listen(0, '127.0.0.1', () => answerCpuMeter((server.address() as AddressInfo).port, () => {
    server.closeAllConnections();
    server.close();
    void client.close().then(() => process.exit(0));
  }));
} else {
  const REQUESTS = Number(arg('requests', '20000'));
  const ROUNDS = Number(arg('rounds', '5'));
  const names = arg('variants', Object.keys(VARIANTS).join(',')).split(',');
  const stub = await startStubPlatform();
  const load = new KeepAliveLoad(32, Array.from({ length: 200 }, () => randomBytes(24).toString('base64url')));
  const servers = new Map<string, CpuServer>();
  for (const name of names) {
    const args = ['--serve', `--variant=${name}`, `--platform=${stub.url}`, ...process.argv.filter((a) => a === '--no-cache')];
    servers.set(name, await forkCpuServer(name, fileURLToPath(import.meta.url), args, {}, () => stub.stop()));
  }

  for (const server of servers.values()) await load.run(server.port, Math.min(REQUESTS, 5000)); // JIT, the API token, the cache
  const figures = new Map<string, number[]>(names.map((n) => [n, []]));
  for (let r = 0; r < ROUNDS; r += 1) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) figures.get(name)!.push(await load.cpuPerRequest(servers.get(name)!, REQUESTS));
  }
  const least = (xs: number[]): number => Math.min(...xs);
  const full = figures.has('full') ? least(figures.get('full')!) : undefined;
  console.log(`server CPU per GET /api/me, ${process.argv.includes('--no-cache') ? 'cache off (one E2 call each)' : 'cache on (hits)'}, least of ${ROUNDS} rounds of ${REQUESTS}`);
  for (const [name, xs] of figures) {
    const m = least(xs);
    console.log(`${name.padEnd(15)} ${m.toFixed(1)} us${full === undefined || name === 'full' ? '' : `  ${m - full >= 0 ? '+' : ''}${(m - full).toFixed(1)} us vs full`}   (${xs.map((x) => x.toFixed(1)).join(' ')})`);
  }
  for (const server of servers.values()) server.child.send({ op: 'exit' });
  load.close();
  stub.stop();
}
