// Counts the lib/ files, folders and functions one verified request executes between its
// `Authorization` header and the route handler reading `req.user`, on a verification-cache miss
// (a fresh token, the API token already held). V8's precise coverage (call counts, function
// granularity) is read before and after the request; every function of lib/ (the emulator
// excluded) with a non-zero count is listed with its file. A figure of the code's shape, not of
// the machine: CI prints it on every run (`--summary`: the one line).
//
// Usage: npx tsx bench/hot-path-functions.ts [--json | --summary] [--mode=requireGameUser|passport]
//
// Measured (requireGameUser): 18 files in 6 folders, 65 functions (the adapter, the kit, auth,
// the client, the platform call, errors); see docs/performance.md for the figures over time.
import { Session } from 'node:inspector/promises';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

interface FunctionCoverage { functionName: string; ranges: { startOffset: number; count: number }[] }
interface ScriptCoverage { url: string; functions: FunctionCoverage[] }

const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });

const mode = process.argv.find((a) => a.startsWith('--mode='))?.slice('--mode='.length) ?? 'requireGameUser';
const root = fileURLToPath(new URL('..', import.meta.url));
const lib = await import('../lib/index.js');
const { default: express } = await import('express');
type RequestHandler = import('express').RequestHandler;

// The emulator runs in a worker thread: precise coverage is per isolate, so what the emulator
// executes (it labels tokens with the library's own fingerprint) is not counted as the request's.
const emulatorThread = new Worker(new URL('./harness/emulator-thread.ts', import.meta.url));
const emulatorUrl = await new Promise<string>((resolve) => emulatorThread.once('message', resolve));
/** A user token from the emulator's control API (`emulator.login()` over HTTP). */
async function login(memberNo: string): Promise<string> {
  const res = await fetch(`${emulatorUrl}/_emulator/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ member_no: memberNo }) });
  return ((await res.json()) as { access_token: string }).access_token;
}
const client = new lib.PlatformClient({ baseUrl: emulatorUrl, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game', logger: lib.silentLogger });
const app = express();
if (mode === 'passport') {
  const { Passport } = (await import('passport')) as unknown as { Passport: new () => import('passport').PassportStatic };
  const passport = new Passport();
  passport.use(new lib.PlatformBearerStrategy({ client }));
  app.get('/me', passport.authenticate('game-platform', { session: false, failWithError: true }) as RequestHandler, (req, res) => { res.json(req.user); });
} else {
  app.get('/me', lib.requireGameUser({ client }), (req, res) => { res.json(req.user); });
}
app.use(lib.platformErrorHandler());
const server = app.listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const { port } = server.address() as AddressInfo;

function get(token: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/me', headers: { authorization: `Bearer ${token}` }, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end();
  });
}

async function snapshot(): Promise<ScriptCoverage[]> {
  const { result } = (await session.post('Profiler.takePreciseCoverage')) as unknown as { result: ScriptCoverage[] };
  return result;
}

// Warm up: loads every module, gets the API token, fills lazy state; two requests with two tokens.
for (const member of ['20005061986', '20005061987']) {
  const status = await get(await login(member));
  if (status !== 200) throw new Error(`warm-up request answered ${status}`);
}
const fresh = await login('20005061986');
await snapshot(); // resets the counters
const status = await get(fresh);
const coverage = await snapshot();
if (status !== 200) throw new Error(`measured request answered ${status}`);

const entered: { file: string; name: string }[] = [];
for (const script of coverage) {
  if (!script.url.startsWith('file://')) continue;
  const file = fileURLToPath(script.url).slice(root.length);
  if (!file.startsWith('lib/') || file.startsWith('lib/emulator/')) continue;
  for (const fn of script.functions) {
    // `__name` is tsx's keep-names helper, absent from the built package.
    if (fn.functionName === '__name') continue;
    if (fn.ranges[0] !== undefined && fn.ranges[0].count > 0 && fn.ranges[0].startOffset > 0) {
      entered.push({ file, name: fn.functionName || '(anonymous)' });
    }
  }
}
entered.sort((a, b) => a.file.localeCompare(b.file) || a.name.localeCompare(b.name));
const files = new Set(entered.map((e) => e.file));
const layer = (file: string): string => file.split('/')[1] ?? file;
const byLayer: Record<string, number> = {};
for (const e of entered) byLayer[layer(e.file)] = (byLayer[layer(e.file)] ?? 0) + 1;
const folders = Object.keys(byLayer).length;
const summary = `executed by one verified request (${mode}, cache miss, API token held): ${files.size} files in ${folders} folders, ${entered.length} functions`;

if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ mode, functions: entered.length, files: files.size, folders, byLayer, entered }, null, 2));
} else if (process.argv.includes('--summary')) {
  console.log(summary);
  console.log(`by folder: ${Object.entries(byLayer).map(([k, v]) => `${k} ${v}`).join(', ')}`);
} else {
  console.log(summary);
  console.log(`by layer: ${Object.entries(byLayer).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  for (const e of entered) console.log(`  ${e.file}  ${e.name}`);
}
server.close();
await client.close();
emulatorThread.postMessage('close');
await new Promise((resolve) => emulatorThread.once('exit', resolve));
session.disconnect();
