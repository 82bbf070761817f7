// Revocation lag: three example-app instances (one process each) on one private Redis, live
// `/ws` sockets spread over them, and logouts at a steady rate, each made on another instance
// than the one holding the socket. Measured two ways:
// - end to end, on this process's clock: from just before `POST /api/logout` is sent to one
//   instance to when the socket on another instance is told `session:ended` `logout`;
// - as the instances report it: `game_platform_revocation_lag_seconds` scraped from each
//   instance's /metrics (from the making instance's Date.now() to the applying one's).
// `npm run bench:lag` (`-- --quick` for a smoke run); writes bench/results/revocation-lag.json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import WebSocket from 'ws';
import { startEmulator } from '../lib/emulator/index.js';
import type { Emulator } from '../lib/emulator/index.js';
import { startAppProcess } from '../spec/support/app-process.js';
import type { AppProcess } from '../spec/support/app-process.js';
import { startTestRedis } from '../spec/support/redis-server.js';
import type { TestRedis } from '../spec/support/redis-server.js';

const INSTANCES = 3;
const METRICS_TOKEN = 'revocation-lag-bench-scrape';
const READY = /Ready: (http:\/\/127\.0\.0\.1:\d+)/;
const MEMBER = '20005061987';

export interface LagFigures { p50: number; p99: number; max: number; mean: number }

export interface RevocationLagResults {
  instances: number;
  sockets: number;
  logoutsPerSecond: number;
  /** From the logout request sent to the socket on another instance told, ms (this process's clock). */
  endToEndMs: LagFigures;
  /** From the instances' histograms: observations, mean, and p50/p99 interpolated within buckets (as histogram_quantile does), ms. */
  reported: { observations: number; meanMs: number; p50Ms: number; p99Ms: number };
  sessionsEndedLogout: number;
  /** Logouts answered 503 (nothing revoked) and sent again. */
  retriedLogouts: number;
  machine: { cpus: number; loadAverageBefore: number[]; loadAverageAfter: number[]; uptimeAfter: string };
}

const round = (value: number): number => Math.round(value * 100) / 100;

function figures(values: number[]): LagFigures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number): number => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: round(at(50)), p99: round(at(99)), max: round(sorted.at(-1)!), mean: round(sorted.reduce((a, b) => a + b, 0) / sorted.length) };
}

/** The lag histogram of one instance's exposition: cumulative buckets, sum and count. */
function histogramOf(text: string): { buckets: Map<number, number>; sum: number; count: number; logouts: number } {
  const buckets = new Map<number, number>();
  let sum = 0;
  let count = 0;
  let logouts = 0;
  for (const line of text.split('\n')) {
    const bucket = /^game_platform_revocation_lag_seconds_bucket\{le="([^"]+)"\} (\d+)/.exec(line);
    if (bucket !== null) buckets.set(bucket[1] === '+Inf' ? Infinity : Number(bucket[1]), Number(bucket[2]));
    const s = /^game_platform_revocation_lag_seconds_sum (\S+)/.exec(line);
    if (s !== null) sum = Number(s[1]);
    const c = /^game_platform_revocation_lag_seconds_count (\d+)/.exec(line);
    if (c !== null) count = Number(c[1]);
    const ended = /^game_platform_sessions_ended_total\{reason="logout"\} (\d+)/.exec(line);
    if (ended !== null) logouts = Number(ended[1]);
  }
  return { buckets, sum, count, logouts };
}

/** A quantile of merged cumulative buckets, interpolated linearly within its bucket (seconds). */
function quantile(buckets: Map<number, number>, q: number): number {
  const bounds = [...buckets.keys()].sort((a, b) => a - b);
  const total = buckets.get(Infinity) ?? 0;
  const rank = q * total;
  let lower = 0;
  let below = 0;
  for (const bound of bounds) {
    const cumulative = buckets.get(bound)!;
    if (cumulative >= rank) {
      if (bound === Infinity) return lower;
      return lower + (bound - lower) * ((rank - below) / Math.max(1, cumulative - below));
    }
    lower = bound;
    below = cumulative;
  }
  return lower;
}

interface Socket { ws: WebSocket; endedAt: Promise<number> }

function openSocket(url: string, token: string): Promise<Socket> {
  const ws = new WebSocket(url, { headers: { Authorization: `Bearer ${token}` } });
  let ended!: (at: number) => void;
  const endedAt = new Promise<number>((resolve) => (ended = resolve));
  return new Promise((resolve, reject) => {
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as { type?: string; reason?: string };
      if (message.type === 'session') resolve({ ws, endedAt });
      else if (message.type === 'session:ended' && message.reason === 'logout') ended(Date.now());
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) => reject(new Error(`upgrade refused: ${res.statusCode}`)));
  });
}

/** A handshake answered 503 on a busy machine is tried again, as a game client would. */
async function openWithRetry(url: string, token: string): Promise<Socket> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await openSocket(url, token);
    } catch (error) {
      if (attempt === 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}

let retriedLogouts = 0;

/**
 * Logs a token out on one instance. A 503 (on a busy machine, a revocation marker read that
 * did not answer within the store timeout fails closed) revokes nothing: it is sent again, and
 * the lag counts from the attempt that revoked.
 */
async function logout(url: string, token: string, sent: (at: number) => void): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    sent(Date.now());
    const res = await fetch(`${url}/api/logout`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    if (res.status === 204) return;
    if (res.status !== 503 || attempt === 5) throw new Error(`logout answered ${res.status}`);
    retriedLogouts += 1;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export async function runRevocationLag(log: (line: string) => void, quick = false): Promise<RevocationLagResults> {
  const sockets = quick ? 60 : 600;
  const perSecond = quick ? 20 : 50;
  let emulator: Emulator | undefined;
  let redis: TestRedis | undefined;
  let apps: AppProcess[] = [];
  const open: WebSocket[] = [];
  try {
    [emulator, redis] = await Promise.all([startEmulator({ maxLogEntries: 50_000 }), startTestRedis()]);
    const platform = emulator;
    apps = Array.from({ length: INSTANCES }, () => startAppProcess({
      PORT: '0', PLATFORM_BASE_URL: platform.url, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret',
      PLATFORM_GAME_ID: 'demo-game', REDIS_URL: redis!.url, REDIS_PREFIX: 'pgp-lag:', METRICS_TOKEN,
    }));
    const urls = await Promise.all(apps.map(async (app) => (await app.waitForOutput(READY, 120_000))[1]!));
    log(`  ${INSTANCES} instances ready; opening ${sockets} sockets`);
    const tokens = Array.from({ length: sockets }, () => platform.login(MEMBER, 'demo-game').access_token);
    const live: Socket[] = [];
    // In batches, so the handshakes do not queue behind each other's E2 calls for long.
    for (let i = 0; i < sockets; i += 50) {
      const batch = await Promise.all(tokens.slice(i, i + 50).map((token, j) => openWithRetry(`${urls[(i + j) % INSTANCES]!.replace('http', 'ws')}/ws`, token)));
      live.push(...batch);
      open.push(...batch.map((s) => s.ws));
    }
    const loadAverageBefore = loadavg().map(round);
    log(`  logging out ${sockets} tokens at ${perSecond}/s, each on another instance than its socket`);
    const madeAt: number[] = [];
    const began = performance.now();
    const requests: Array<Promise<unknown>> = [];
    for (let i = 0; i < sockets; i += 1) {
      const due = began + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      requests.push(logout(urls[(i + 1) % INSTANCES]!, tokens[i]!, (at) => (madeAt[i] = at)));
    }
    await Promise.all(requests);
    const endedAt = await Promise.all(live.map((s) => s.endedAt));
    const endToEndMs = figures(endedAt.map((at, i) => at - madeAt[i]!));
    const merged = new Map<number, number>();
    let sum = 0;
    let count = 0;
    let sessionsEndedLogout = 0;
    for (const url of urls) {
      const text = await (await fetch(`${url}/metrics`, { headers: { Authorization: `Bearer ${METRICS_TOKEN}` } })).text();
      const histogram = histogramOf(text);
      for (const [bound, n] of histogram.buckets) merged.set(bound, (merged.get(bound) ?? 0) + n);
      sum += histogram.sum;
      count += histogram.count;
      sessionsEndedLogout += histogram.logouts;
    }
    const reported = { observations: count, meanMs: round((sum / Math.max(1, count)) * 1000), p50Ms: round(quantile(merged, 0.5) * 1000), p99Ms: round(quantile(merged, 0.99) * 1000) };
    const machine = { cpus: cpus().length, loadAverageBefore, loadAverageAfter: loadavg().map(round), uptimeAfter: execFileSync('uptime', { encoding: 'utf8' }).trim() };
    log(`  end to end: p50 ${endToEndMs.p50} ms, p99 ${endToEndMs.p99} ms, max ${endToEndMs.max} ms (mean ${endToEndMs.mean} ms)`);
    log(`  reported by the instances: ${count} observations, mean ${reported.meanMs} ms, p50 ~${reported.p50Ms} ms, p99 ~${reported.p99Ms} ms; sessions ended for logout: ${sessionsEndedLogout}; logouts sent again after a 503: ${retriedLogouts}`);
    log(`  load: ${machine.uptimeAfter}`);
    return { instances: INSTANCES, sockets, logoutsPerSecond: perSecond, endToEndMs, reported, sessionsEndedLogout, retriedLogouts, machine };
  } finally {
    for (const ws of open) ws.terminate();
    await Promise.all(apps.map((app) => app.stop()));
    await redis?.stop();
    await emulator?.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  runRevocationLag((line) => void process.stdout.write(`${line}\n`), quick)
    .then((results) => {
      const dir = fileURLToPath(new URL('./results/', import.meta.url));
      mkdirSync(dir, { recursive: true });
      if (!quick) writeFileSync(`${dir}revocation-lag.json`, `${JSON.stringify(results, null, 2)}\n`);
      process.stdout.write(`${JSON.stringify(results)}\n`);
    })
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
