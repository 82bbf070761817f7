// `npm run soak`: a bounded soak of the example app (default 2 minutes, loopback only). The
// emulator and the app run in their own processes; this one offers a steady load with ~5 %
// injected platform faults and a growing set of distinct user tokens, then reports requests,
// answers by status, p99, the app's RSS at start and end and its unhandled rejections, and
// writes bench/results/soak.json. Options: bench/soak/soak-options.ts (SOAK_DURATION_S, ...).
import { performance } from 'node:perf_hooks';
import { DEFAULT_SEED } from '../lib/emulator/index.js';
import { FaultInjector } from './soak/fault-injector.js';
import { runFloods, type FloodTally } from './soak/flood-shapes.js';
import { runLoad } from './soak/load-loop.js';
import { PlatformControl } from './soak/platform-control.js';
import { appStats, killChildren, startChild } from './soak/soak-children.js';
import { soakOptions } from './soak/soak-options.js';
import { SOAK_RESULT_FILE, soakReport, soakSummary, writeSoakReport } from './soak/soak-report.js';
import { TokenPool } from './soak/token-pool.js';

const options = soakOptions();
const client = DEFAULT_SEED.clients[0]!;
let driverUnhandledRejections = 0;
process.on('unhandledRejection', (reason) => {
  driverUnhandledRejections += 1;
  process.stderr.write(`soak driver: unhandled rejection: ${String(reason)}\n`);
});
process.on('exit', killChildren);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    killChildren();
    process.exit(130);
  });
}
const hardLimit = setTimeout(() => {
  process.stderr.write(`soak: hard time limit of ${options.hardLimitMs / 1000} s reached; stopping\n`);
  killChildren();
  process.exit(2);
}, options.hardLimitMs);
hardLimit.unref();

const log = (line: string): void => void process.stdout.write(`${line}\n`);
log(`soak: ${options.durationS} s at ${options.rate} req/s, ${options.faultRate * 100} % faults, ${options.tokensStart} + ${options.tokensPerS}/s tokens`);

const emulator = await startChild('bench/soak/emulator-process.ts', ['--port', '0'], /listening on (http:\/\/127\.0\.0\.1:\d+)/);
const control = new PlatformControl(emulator.ready);
const app = await startChild('bench/soak/app-process.ts', [], /SOAK_READY port=(\d+)/, {
  nodeArgs: ['--expose-gc'],
  env: { PLATFORM_BASE_URL: emulator.ready, PLATFORM_CLIENT_ID: client.client_id, PLATFORM_CLIENT_SECRET: client.client_secret, PLATFORM_GAME_ID: client.service_id },
});
const port = Number(app.ready);
const pool = new TokenPool(control, client.service_id);
await pool.mint(options.tokensStart);
const tokensStart = pool.size;
await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { authorization: `Bearer ${pool.pick(0).token}` } });
const appStart = await appStats(app, true);
let rssMaxBytes = appStart.rssBytes;

const faults = new FaultInjector(control, options.faultRate);
let owedTokens = 0;
let minting: Promise<void> = Promise.resolve();
let ticks = 0;
const started = performance.now();
let loadDone = false;
// Hostile real-time clients beside the steady load; memory after GC must stay flat.
const floods: Promise<FloodTally | undefined> = options.floods
  ? runFloods(port, () => pool.pick(0).token, () => loadDone).catch((err: unknown) => {
    process.stderr.write(`soak floods: ${String(err)}\n`);
    return undefined;
  })
  : Promise.resolve(undefined);
const load = await runLoad({
  port,
  rate: options.rate,
  concurrency: options.concurrency,
  durationMs: options.durationS * 1000,
  pick: () => pool.pick(options.invalidRate).token,
  onTick: (sent) => {
    faults.tick(sent);
    owedTokens += options.tokensPerS / 10;
    const count = Math.floor(owedTokens);
    owedTokens -= count;
    if (count > 0) minting = minting.then(() => pool.mint(count)).catch(() => undefined);
    ticks += 1;
    if (ticks % 50 === 0) {
      void appStats(app).then((s) => void (rssMaxBytes = Math.max(rssMaxBytes, s.rssBytes)), () => undefined);
      log(`soak: ${Math.round((performance.now() - started) / 1000)} s, ${sent} requests, ${pool.size} tokens, ${faults.total} faults`);
    }
  },
});
loadDone = true;
const floodTally = await floods;
const elapsedS = (performance.now() - started) / 1000;
await faults.settled();
await minting;
const appEnd = await appStats(app, true);
rssMaxBytes = Math.max(rssMaxBytes, appEnd.rssBytes);
await app.stop();
await emulator.stop();

const report = soakReport({
  options, elapsedS, load, faults: { total: faults.total, byType: faults.byType }, tokens: { start: tokensStart, end: pool.size },
  appStart, appEnd, rssMaxBytes, driverUnhandledRejections, floods: floodTally,
});
await writeSoakReport(report);
log(soakSummary(report));
log(`written: ${SOAK_RESULT_FILE}`);
clearTimeout(hardLimit);
process.exitCode = report.ok ? 0 : 1;
