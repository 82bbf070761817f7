// Server CPU per verified request of the library as it is in the working tree, against the
// library at another revision (default HEAD) and the floor, side by side: each a server process
// of its own run by plain node (bench/harness/compare-server.ts: Express, `requireGameUser`,
// default options; the library and the server compiled by tsc, nothing transformed as they
// run), the platform a stub in another process, the load generated here (keep-alive, 50 in flight, 50
// tokens, so every request is one E2 call). Rounds alternate the order; the figures are the
// median of the rounds and the median of same-round ratios to the floor. A change of a few µs
// per request shows here when a full `npm run bench` cannot tell it from the machine's drift
// (autocannon, three servers and the emulator share its two cores there).
//
// Usage: npx tsx bench/compare-builds.ts [--base=HEAD] [--rounds=7] [--requests=20000]
import { execFileSync, fork } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Git-ignored, beside the bench's own compiled copy. */
const OUT = fileURLToPath(new URL('./.built/compare/', import.meta.url));
const IN_FLIGHT = 50;

const base = arg('base', 'HEAD');
const REQUESTS = Number(arg('requests', '20000'));
const ROUNDS = Number(arg('rounds', '7'));
if (!(REQUESTS > 0 && ROUNDS > 0)) throw new Error('--requests and --rounds must be positive numbers');

// Both copies compiled the same way: the working tree's lib/, and `base`'s from git.
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compile = (project: string, outDir: string): void => {
  execFileSync(process.execPath, [tsc, '-p', project, '--outDir', outDir, '--declaration', 'false', '--declarationMap', 'false', '--incremental', 'false'], { cwd: REPO_ROOT, stdio: 'inherit' });
};
rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}base-src`, { recursive: true });
const archive = execFileSync('git', ['archive', '--format=tar', base, 'lib', 'tsconfig.json', 'tsconfig.build.json'], { cwd: REPO_ROOT, maxBuffer: 256 * 1024 * 1024 });
execFileSync('tar', ['-x', '-C', `${OUT}base-src`], { input: archive });
compile('tsconfig.build.json', `${OUT}current`);
compile(`${OUT}base-src/tsconfig.build.json`, `${OUT}base`);
// The server and the floor's route, to JavaScript beside the copies.
for (const file of ['compare-server', 'floor-route']) {
  const source = readFileSync(fileURLToPath(new URL(`./harness/${file}.ts`, import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } });
  writeFileSync(`${OUT}${file}.js`, outputText);
}

const { startStubPlatform } = await import('./harness/stub-platform.js');
const stub = await startStubPlatform();
const names = ['floor', 'base', 'current'];
const tokens = Array.from({ length: 50 }, () => randomBytes(24).toString('base64url'));
const agent = new Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
const ask = <T>(child: ChildProcess, message: object): Promise<T> => new Promise((resolve) => {
  child.once('message', (m) => resolve(m as T));
  child.send(message);
});

interface Server { child: ChildProcess; port: number }
const servers = new Map<string, Server>();
for (const name of names) {
  const which = name === 'floor' ? 'floor' : `${OUT}${name}`;
  const child = fork(`${OUT}compare-server.js`, [`--which=${which}`, `--platform=${stub.url}`], { execArgv: [] });
  child.once('exit', (code) => {
    if (code !== 0) {
      process.stderr.write(`the ${name} server exited with ${code}\n`);
      stub.stop();
      process.exit(1);
    }
  });
  const { port } = await new Promise<{ port: number }>((resolve) => child.once('message', (m) => resolve(m as { port: number })));
  servers.set(name, { child, port });
}

const get = (port: number, token: string): Promise<void> => new Promise((resolve, reject) => {
  const req = request({ host: '127.0.0.1', port, path: '/api/me', agent, headers: { authorization: `Bearer ${token}` } }, (res) => {
    if (res.statusCode !== 200) reject(new Error(`/api/me answered ${res.statusCode}`));
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', reject);
  req.end();
});
const load = async (port: number, count: number): Promise<void> => {
  let next = 0;
  await Promise.all(Array.from({ length: IN_FLIGHT }, async () => {
    while (next < count) await get(port, tokens[next++ % tokens.length]!);
  }));
};
const measure = async (server: Server): Promise<number> => {
  await ask(server.child, { op: 'start' });
  await load(server.port, REQUESTS);
  const { cpuUs } = await ask<{ cpuUs: number }>(server.child, { op: 'stop' });
  return cpuUs / REQUESTS;
};

for (const server of servers.values()) await load(server.port, Math.min(REQUESTS, 5000)); // JIT, the API token
const figures = new Map<string, number[]>(names.map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r += 1) {
  for (const name of r % 2 === 0 ? names : [...names].reverse()) figures.get(name)!.push(await measure(servers.get(name)!));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = figures.get('floor')!;
console.log(`server CPU per verified request (µs), ${ROUNDS} rounds of ${REQUESTS}; base = ${base}, current = the working tree`);
for (const [name, xs] of figures) {
  const paired = median(xs.map((x, i) => x / floor[i]!));
  console.log(`${name.padEnd(8)} median ${median(xs).toFixed(1)}  least ${Math.min(...xs).toFixed(1)}  /floor (same-round pairs) ${paired.toFixed(3)}   rounds ${xs.map((x) => x.toFixed(0)).join(' ')}`);
}
const pairs = figures.get('current')!.map((x, i) => x - figures.get('base')![i]!);
console.log(`current - base, same-round pairs: median ${median(pairs).toFixed(1)} µs (${pairs.map((d) => d.toFixed(1)).join(' ')})`);
for (const server of servers.values()) server.child.send({ op: 'exit' });
agent.destroy();
stub.stop();
