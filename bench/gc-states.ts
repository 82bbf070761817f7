// The garbage collector's state of each server process under the side-by-side load: several
// processes of each case, started side by side, each given one run of the stage's shape (50
// connections, 50 valid tokens in rotation, a stub platform) while V8 traces every collection.
// Per process: requests/s, p99, and for its young-generation collections (scavenges) their
// count, median pause and median bytes promoted to the old generation; its major collections.
// Under this load a process settles into one of two states (about 70 KB promoted per scavenge,
// about 1 ms; or about 1 MB, 3 to 5 ms): the heavy one is kept going by a long-lived Map or Set
// written and emptied on every request (docs/performance.md). This shows which, process by process.
//
// Usage: npx tsx bench/gc-states.ts [--cases=library,floor,example-app] [--processes=3]
//        [--seconds=5] [--latency=0] [--node-args=--flag1,--flag2] (V8 or Node flags for every server)
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { builtLibArgs, ensureBuiltLib } from './harness/built-lib.js';
import { runLoad } from './harness/load.js';
import { tokenRotation } from './harness/stage-side-by-side.js';
import { startScriptArgs } from '../spec/support/app-process.js';
import { median, round } from './harness/stats.js';
import { startStubPlatform } from './harness/stub-platform.js';

const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));
const arg = (name: string, fallback: string): string => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const cases = arg('cases', 'library,floor,example-app').split(',');
const processes = Number(arg('processes', '3'));
const seconds = Number(arg('seconds', '5'));
const latencyMs = Number(arg('latency', '0'));
const nodeArgs = arg('node-args', '').split(',').filter((a) => a !== '');
const READY = /BENCH_READY port=(\d+)|Ready: http:\/\/127\.0\.0\.1:(\d+)/;

interface Traced { name: string; url: string; child: ChildProcess; lines: string[] }

/** One server process with `--trace-gc-nvp`: the bench servers on the compiled library, the example app as `npm start` runs it. */
function startTraced(name: string, kind: string, env: NodeJS.ProcessEnv): Promise<Traced> {
  const args = kind === 'example-app' ? startScriptArgs() : [...builtLibArgs(), `bench/servers/${kind}-server.ts`];
  const child = spawn(process.execPath, ['--trace-gc-nvp', ...nodeArgs, ...args], { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
  const lines: string[] = [];
  return new Promise((resolve, reject) => {
    let ready = false;
    let rest = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      const text = rest + chunk;
      const parts = text.split('\n');
      rest = parts.pop()!;
      for (const line of parts) {
        if (line.includes('gc=')) lines.push(line);
        const m = ready ? null : READY.exec(line);
        if (m) {
          ready = true;
          resolve({ name, url: `http://127.0.0.1:${m[1] ?? m[2]}`, child, lines });
        }
      }
    });
    child.once('exit', (code) => {
      if (!ready) reject(new Error(`${name}: exited (${code}) before it was ready`));
    });
  });
}

/** The `key=value` pairs of one `--trace-gc-nvp` line. */
function fields(line: string): Record<string, string> {
  return Object.fromEntries([...line.matchAll(/([\w.]+)=([^\s]+)/g)].map((m) => [m[1]!, m[2]!]));
}

ensureBuiltLib();
const stub = await startStubPlatform(latencyMs);
const env: NodeJS.ProcessEnv = {
  ...process.env, ...stub.serverEnv, PORT: '0',
};
delete env.NODE_OPTIONS;
const servers: Traced[] = [];
try {
  for (let p = 1; p <= processes; p += 1) for (const kind of cases) servers.push(await startTraced(`${kind} #${p}`, kind, env));
  const tokens = Array.from({ length: 50 }, () => randomBytes(24).toString('base64url'));
  console.log(`E2 latency ${latencyMs} ms, ${seconds} s per process, 50 connections, 50 tokens in rotation`);
  console.log('process              req/s   p99 ms  scavenges  median pause ms  median promoted KB  major GCs');
  for (const s of servers) {
    const from = s.lines.length;
    const load = await runLoad({ url: s.url, requests: tokenRotation(tokens), connections: 50, durationS: seconds });
    const during = s.lines.slice(from).map(fields);
    const scavenges = during.filter((f) => f.gc === 's');
    const majors = during.filter((f) => f.gc === 'mc' || f.gc === 'mmc').length;
    const pause = median(scavenges.map((f) => Number(f.pause)));
    const promoted = median(scavenges.map((f) => Number(f.promoted))) / 1024;
    console.log(`${s.name.padEnd(18)} ${load.rps.toFixed(0).padStart(7)} ${load.p99Ms.toFixed(2).padStart(8)} ${String(scavenges.length).padStart(10)} ${String(round(pause, 2)).padStart(16)} ${promoted.toFixed(0).padStart(19)} ${String(majors).padStart(10)}`);
  }
} finally {
  for (const s of servers) s.child.kill('SIGKILL');
  stub.stop();
}
