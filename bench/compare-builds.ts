// Server CPU per verified request of the library as it is in the working tree, against the library
// at another revision (default HEAD) and the floor, side by side: each a server process of its own
// run by plain node (bench/harness/compare-server.ts: Express, `requireGameUser`, default options;
// the library and the server compiled by tsc, nothing transformed as they run), the platform a stub
// in another process, the load generated here (keep-alive, 50 in flight, 50 tokens, so every
// request is one E2 call). Rounds alternate the order; the figures are the median of the rounds and
// the median of same-round ratios to the floor. A change of a few µs per request shows here when a
// full `npm run bench` cannot tell it from the machine's drift (autocannon, three servers and the
// emulator share its two cores there).
//
// `--latency=5` makes the stub answer E2 after 5 ms, as the full bench's second platform latency.
//
// `--grace=MS` turns the outage grace on in the working tree's client only (`outageGraceMs`), so
// `current - base` is what the grace costs a verification while the platform answers.
//
// `--profile` writes each server's V8 CPU profile to bench/.built/compare/profiles (read them with
// bench/profile-summary.ts).
//
// Usage: npx tsx bench/compare-builds.ts [--base=HEAD] [--rounds=7] [--requests=20000] [--latency=0] [--grace=0] [--profile]
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { compileLib } from './harness/built-lib.js';
import { forkCpuServer, KeepAliveLoad } from './harness/cpu-servers.js';
import type { CpuServer } from './harness/cpu-servers.js';

const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));
/** Git-ignored, beside the bench's own compiled copy. */
const OUT = fileURLToPath(new URL('./.built/compare/', import.meta.url));
const IN_FLIGHT = 50;

const base = arg('base', 'HEAD');
const REQUESTS = Number(arg('requests', '20000'));
const ROUNDS = Number(arg('rounds', '7'));
const LATENCY_MS = Number(arg('latency', '0'));
const PROFILE = process.argv.includes('--profile');
const GRACE_MS = Number(arg('grace', '0'));
if (!(Number.isInteger(GRACE_MS) && GRACE_MS >= 0)) throw new Error('--grace must be a whole number of milliseconds');
if (!(REQUESTS > 0 && ROUNDS > 0)) throw new Error('--requests and --rounds must be positive numbers');
if (!(LATENCY_MS >= 0 && LATENCY_MS <= 1000)) throw new Error('--latency must be a number of milliseconds from 0 to 1000');

// Both copies compiled the same way: the working tree's lib/, and `base`'s from git.
rmSync(OUT, { recursive: true, force: true });
mkdirSync(`${OUT}base-src`, { recursive: true });
let archive: Buffer;
try {
  archive = execFileSync('git', ['archive', '--format=tar', base, 'lib', 'tsconfig.json', 'tsconfig.build.json'], { cwd: REPO_ROOT, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'ignore'] });
} catch {
  throw new Error(`--base=${base}: git has no such revision with lib/ in it`);
}
execFileSync('tar', ['-x', '-C', `${OUT}base-src`], { input: archive });
compileLib(`${OUT}current`);
compileLib(`${OUT}base`, `${OUT}base-src/tsconfig.build.json`);
// The server and the floor's route, to JavaScript beside the copies.
for (const file of ['compare-server', 'cpu-servers', 'floor-route']) {
  const source = readFileSync(fileURLToPath(new URL(`./harness/${file}.ts`, import.meta.url)), 'utf8');
  const { outputText } = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2023 } });
  writeFileSync(`${OUT}${file}.js`, outputText);
}

const { startStubPlatform } = await import('./harness/stub-platform.js');
const stub = await startStubPlatform(LATENCY_MS);
const names = ['floor', 'base', 'current'];
const load = new KeepAliveLoad(IN_FLIGHT, Array.from({ length: 50 }, () => randomBytes(24).toString('base64url')));

const servers = new Map<string, CpuServer>();
for (const name of names) {
  const which = name === 'floor' ? 'floor' : `${OUT}${name}`;
  const execArgv = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', `${OUT}profiles`, '--cpu-prof-name', `${name}.cpuprofile`] : [];
  const grace = name === 'current' && GRACE_MS > 0 ? [`--grace=${GRACE_MS}`] : [];
  servers.set(name, await forkCpuServer(name, `${OUT}compare-server.js`, [`--which=${which}`, `--platform=${stub.url}`, ...grace], { execArgv }, () => stub.stop()));
}

for (const server of servers.values()) await load.run(server.port, Math.min(REQUESTS, 5000)); // JIT, the API token
const figures = new Map<string, number[]>(names.map((n) => [n, []]));
for (let r = 0; r < ROUNDS; r += 1) {
  for (const name of r % 2 === 0 ? names : [...names].reverse()) figures.get(name)!.push(await load.cpuPerRequest(servers.get(name)!, REQUESTS));
}
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const floor = figures.get('floor')!;
console.log(`server CPU per verified request (µs), ${ROUNDS} rounds of ${REQUESTS}, E2 latency ${LATENCY_MS} ms; base = ${base}, current = the working tree${GRACE_MS > 0 ? ` with outageGraceMs ${GRACE_MS}` : ''}`);
for (const [name, xs] of figures) {
  const paired = median(xs.map((x, i) => x / floor[i]!));
  console.log(`${name.padEnd(8)} median ${median(xs).toFixed(1)}  least ${Math.min(...xs).toFixed(1)}  /floor (same-round pairs) ${paired.toFixed(3)}   rounds ${xs.map((x) => x.toFixed(0)).join(' ')}`);
}
const pairs = figures.get('current')!.map((x, i) => x - figures.get('base')![i]!);
console.log(`current - base, same-round pairs: median ${median(pairs).toFixed(1)} µs (${pairs.map((d) => d.toFixed(1)).join(' ')})`);
for (const server of servers.values()) server.child.send({ op: 'exit' });
load.close();
stub.stop();
