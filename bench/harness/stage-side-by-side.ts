// The side-by-side stage: the floor, the library alone and the example app as `npm start` runs it
// (the node arguments of its script, PLATFORM_* pointing at a stub platform, every
// middleware, the realtime attach and the logger it has in production), against one stub platform
// whose E2 answers every token. 50 connections, 50 valid tokens in rotation (each request takes
// the next one: no player's requests follow one another, so single flight and a warm per-token
// path cannot hide what a token costs), alternating rounds of 5 s with nothing in between (a
// server idles while the others run, as a real one does between bursts), ratios taken between
// runs of the same round and their median reported.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type autocannon from 'autocannon';
import { BUILT_LIB_IMPORT } from './built-lib.js';
import { startScriptArgs } from '../../spec/support/app-process.js';
import { spawnServer } from './children.js';
import { runLoad } from './load.js';
import type { LoadResult } from './load.js';
import { bearerGet } from './request-mix.js';
import { latencyKey, SIDE_BY_SIDE_CASES } from './results.js';
import type { SideBySideCase, SideBySideCaseResult, SideBySideRatios, SideBySideResult, SideBySideRun } from './results.js';
import type { StageContext } from './stage-context.js';
import { median, ratio, round, rotation } from './stats.js';
import { startStubPlatform } from './stub-platform.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const STOP_GRACE_MS = 3000;

/** One server of the stage: its URL, its process (for CPU time) and how to stop it. */
interface Target {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

/** CPU time of a process and all its threads, µs (Linux /proc; clock ticks of 10 ms). */
function processCpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime (fields 14 and 15)
  return (ticks * 1e6) / 100;
}

/** The example app as `npm start` runs it, PORT=0; ready when it prints its `Ready:` line. */
async function startExampleApp(env: Record<string, string>, nodeArgs: string[], builtLib = false): Promise<Target> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, PORT: '0' };
  delete childEnv.NODE_OPTIONS;
  const start = startScriptArgs();
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, ...start.slice(0, -1), ...(builtLib ? ['--import', BUILT_LIB_IMPORT] : []), ...start.slice(-1)], {
    cwd: REPO_ROOT, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (c: string) => {
    stderr = (stderr + c).slice(-4000);
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`example app: not ready after 30 s\n${out}\n${stderr}`)), 30_000);
    const onData = (c: string): void => {
      out += c;
      const m = /Ready: http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout!.off('data', onData).resume(); // keep draining; nothing more is read
        resolve(Number(m[1]));
      }
    };
    child.stdout!.setEncoding('utf8').on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`example app exited (${code}) before it was ready\n${out}\n${stderr}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: () => new Promise<void>((resolve) => {
      process.off('exit', killOnExit);
      if (child.exitCode !== null || child.signalCode !== null) {
        resolve();
        return;
      }
      const force = setTimeout(() => child.kill('SIGKILL'), STOP_GRACE_MS);
      child.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      child.kill('SIGTERM');
    }),
  };
}

/** One request per token in turn, across every connection. */
export function tokenRotation(tokens: readonly string[]): autocannon.Request[] {
  const build = bearerGet('/api/me');
  let cursor = 0;
  return [{
    setupRequest: (req) => {
      const token = tokens[cursor % tokens.length]!;
      cursor += 1;
      return { ...req, ...build(token) };
    },
  }];
}

async function measureRun(target: Target, tokens: readonly string[], connections: number, durationS: number, roundNo: number): Promise<SideBySideRun> {
  const cpu0 = processCpuMicros(target.pid);
  const load: LoadResult = await runLoad({ url: target.url, requests: tokenRotation(tokens), connections, durationS });
  const cpu = processCpuMicros(target.pid) - cpu0;
  return {
    round: roundNo,
    rps: round(load.rps, 1),
    p50Ms: round(load.p50Ms, 3),
    p99Ms: round(load.p99Ms, 3),
    requests: load.responses,
    failed: load.non2xx + load.errors + load.timeouts,
    cpuMicrosPerRequest: round(load.responses === 0 ? Number.NaN : cpu / load.responses, 1),
  };
}

function caseResult(rounds: SideBySideRun[]): SideBySideCaseResult {
  return {
    median: {
      rps: round(median(rounds.map((r) => r.rps)), 1),
      p50Ms: round(median(rounds.map((r) => r.p50Ms)), 3),
      p99Ms: round(median(rounds.map((r) => r.p99Ms)), 3),
      cpuMicrosPerRequest: round(median(rounds.map((r) => r.cpuMicrosPerRequest)), 1),
    },
    rounds,
  };
}

/** Medians of same-round ratios of `a` to `b`. */
export function sameRoundRatios(a: readonly SideBySideRun[], b: readonly SideBySideRun[]): SideBySideRatios {
  const pairs = a.flatMap((ra) => {
    const rb = b.find((x) => x.round === ra.round);
    return rb === undefined ? [] : [[ra, rb] as const];
  });
  const rpsPerRound = pairs.map(([ra, rb]) => round(ratio(ra.rps, rb.rps), 3));
  return {
    rps: round(median(rpsPerRound), 3),
    p99: round(median(pairs.map(([ra, rb]) => ratio(ra.p99Ms, rb.p99Ms))), 3),
    cpu: round(median(pairs.map(([ra, rb]) => ratio(ra.cpuMicrosPerRequest, rb.cpuMicrosPerRequest))), 3),
    rpsPerRound,
  };
}

const line = (name: string, s: SideBySideRun): string =>
  `  ${name.padEnd(17)} ${s.rps.toFixed(0).padStart(6)} req/s  p50 ${s.p50Ms.toFixed(2)} ms  p99 ${s.p99Ms.toFixed(2)} ms  server CPU ${s.cpuMicrosPerRequest.toFixed(0)} us/req${s.failed ? `  FAILED ${s.failed}` : ''}`;

/** Runs the stage at each of the options' latencies. */
export async function runSideBySide(ctx: StageContext): Promise<SideBySideResult> {
  const { options } = ctx;
  const { connections, tokens: tokenCount, durationS, rounds, warmupS, builtApp } = options.sideBySide;
  const caseNames: SideBySideCase[] = [...SIDE_BY_SIDE_CASES, ...(builtApp ? ['example-app-built' as const] : [])];
  const stub = await startStubPlatform(0);
  const env = stub.serverEnv;
  const profile = (name: string): string[] => (options.cpuProfile.includes(name) ? ['--cpu-prof', '--cpu-prof-dir', ctx.profileDir] : []);
  const targets = new Map<SideBySideCase, Target>();
  const result: SideBySideResult = {
    shape: {
      connections, tokens: tokenCount, roundS: durationS, rounds, warmupS,
      platform: 'stub (bench/harness/stub-platform.ts): fixed E2 answer, latency injected',
      exampleApp: `node ${startScriptArgs().join(' ')} (as npm start), PLATFORM_* set to the stub`,
      cases: caseNames,
    },
    byLatency: {},
  };
  try {
    for (const c of ['floor', 'library'] as const) {
      const s = await spawnServer(`side-by-side ${c}`, `${c}-server.ts`, { env, nodeArgs: profile(`sbs-${c}`) });
      targets.set(c, { url: s.url, pid: s.pid, stop: () => s.stop() });
    }
    targets.set('example-app', await startExampleApp(env, profile('sbs-example-app')));
    if (builtApp) targets.set('example-app-built', await startExampleApp(env, profile('sbs-example-app-built'), true));
    for (const [c, t] of targets) if (profile(`sbs-${c}`).length > 0) ctx.log(`  ${c}: pid ${t.pid}, CPU profile CPU.*.${t.pid}.0.*.cpuprofile in ${ctx.profileDir}`);
    const tokens = Array.from({ length: tokenCount }, () => randomBytes(24).toString('base64url'));
    for (const latencyMs of options.latenciesMs) {
      await stub.setLatency(latencyMs);
      const what = `side by side, E2 latency ${latencyMs} ms`;
      ctx.log(`${what}: warm-up`);
      for (const t of targets.values()) await measureRun(t, tokens, connections, warmupS, 0);
      const runs = new Map<SideBySideCase, SideBySideRun[]>(caseNames.map((c) => [c, []]));
      for (let r = 0; r < rounds; r += 1) {
        ctx.log(`${what}: round ${r + 1}/${rounds}`);
        for (const c of rotation(caseNames, r)) {
          if (!ctx.deadline.allows(durationS + ctx.reserveS)) {
            ctx.note(`${what} round ${r + 1} ${c}: skipped (time limit)`);
            continue;
          }
          const s = await measureRun(targets.get(c)!, tokens, connections, durationS, r + 1);
          runs.get(c)!.push(s);
          ctx.log(line(c, s));
        }
      }
      const cases = Object.fromEntries(caseNames.map((c) => [c, caseResult(runs.get(c)!)]));
      const ratios: Record<string, SideBySideRatios> = {
        'library/floor': sameRoundRatios(runs.get('library')!, runs.get('floor')!),
        'example-app/floor': sameRoundRatios(runs.get('example-app')!, runs.get('floor')!),
      };
      if (builtApp) ratios['example-app-built/floor'] = sameRoundRatios(runs.get('example-app-built')!, runs.get('floor')!);
      result.byLatency[latencyKey(latencyMs)] = { cases, ratios };
    }
  } finally {
    await Promise.all([...targets.values()].map((t) => t.stop()));
    stub.stop();
  }
  return result;
}

/** The printed part of the report. */
export function formatSideBySide(r: SideBySideResult): string[] {
  const fmt = (v: number, d: number): string => (Number.isFinite(v) ? v.toFixed(d) : '-');
  const lines = ['', `side by side (${r.shape.connections} connections, ${r.shape.tokens} tokens in rotation, ${r.shape.rounds} alternating rounds of ${r.shape.roundS} s; medians):`];
  for (const [key, at] of Object.entries(r.byLatency)) {
    for (const [c, result] of Object.entries(at.cases)) {
      const m = result.median;
      lines.push(`  ${c.padEnd(12)} ${key.padEnd(14)} ${fmt(m.rps, 0).padStart(7)} req/s  p50 ${fmt(m.p50Ms, 2)} ms  p99 ${fmt(m.p99Ms, 2)} ms  server CPU ${fmt(m.cpuMicrosPerRequest, 0)} us/req`);
    }
    for (const [name, v] of Object.entries(at.ratios)) {
      lines.push(`  ${name.padEnd(18)} ${key.padEnd(14)} req/s ${fmt(v.rps, 3)} (rounds ${v.rpsPerRound.map((x) => fmt(x, 2)).join(', ')})  p99 ${fmt(v.p99, 2)}x  CPU/req ${fmt(v.cpu, 2)}x`);
    }
  }
  return lines;
}
