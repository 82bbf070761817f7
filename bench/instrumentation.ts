// Instrumentation cost: verifications with nobody subscribed to the diagnostics
// channels, with the OpenTelemetry recipe subscribed (in-memory exporter), and
// with the Prometheus collector subscribed. Two paths: the cache-hit path (no
// network: the channels' cost per verification shows undiluted) and the
// platform path (an E2 call per verification, in-process emulator).
// Rounds alternate the variants; the median of each is reported.
// Run alone: `npx tsx bench/instrumentation.ts` (or BENCH_ONLY=instrumentation npm run bench).
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { Registry } from 'prom-client';
import { PlatformClient } from '../lib/index.js';
import { startEmulator } from '../lib/emulator/index.js';
import { instrumentGamePlatform } from '../lib/opentelemetry/index.js';
import { collectGamePlatformMetrics } from '../lib/prometheus/index.js';

type Variant = 'none' | 'opentelemetry' | 'prometheus';
const VARIANTS: readonly Variant[] = ['none', 'opentelemetry', 'prometheus'];

export interface InstrumentationResults {
  /** Verifications per second (median of rounds). */
  cachedOpsPerS: Record<Variant, number>;
  platformOpsPerS: Record<Variant, number>;
  /** Each variant over `none`. */
  cachedRatio: Record<Variant, number>;
  platformRatio: Record<Variant, number>;
  rounds: number;
}

function subscribe(variant: Variant, client: PlatformClient): () => void {
  if (variant === 'opentelemetry') {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
    const stop = instrumentGamePlatform({ tracerProvider: provider });
    // Keep memory flat: spans are dropped as they are exported.
    const drain = setInterval(() => exporter.reset(), 100);
    return () => {
      clearInterval(drain);
      stop();
    };
  }
  if (variant === 'prometheus') return collectGamePlatformMetrics({ register: new Registry(), health: () => client.health() });
  return () => {};
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function measure(run: () => Promise<number>, variant: Variant, client: PlatformClient): Promise<number> {
  const stop = subscribe(variant, client);
  try {
    const started = performance.now();
    const count = await run();
    return count / ((performance.now() - started) / 1000);
  } finally {
    stop();
  }
}

export async function runInstrumentation(log: (line: string) => void, rounds = 5, quick = false): Promise<InstrumentationResults> {
  const emulator = await startEmulator({ host: '127.0.0.1' });
  const config = { baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' };
  const cached = new PlatformClient({ ...config, cache: { ttlMs: 300_000 } });
  const direct = new PlatformClient({ ...config });
  try {
    const token = emulator.login('20005061986', 'demo-game').access_token;
    await cached.verifyUserToken(token);
    await direct.ready();
    const cachedOps = quick ? 20_000 : 200_000;
    const platformOps = quick ? 500 : 3000;
    const tokens = Array.from({ length: 50 }, () => emulator.login('20005061986', 'demo-game').access_token);
    const cachedRun = async (): Promise<number> => {
      for (let i = 0; i < cachedOps; i += 1) await cached.verifyUserToken(token);
      return cachedOps;
    };
    // 50 callers in parallel, each with its own token (no sharing of calls).
    const platformRun = async (): Promise<number> => {
      let left = platformOps;
      await Promise.all(tokens.map(async (t) => {
        while (left > 0) {
          left -= 1;
          await direct.verifyUserToken(t);
        }
      }));
      return platformOps;
    };
    const cachedRates: Record<Variant, number[]> = { none: [], opentelemetry: [], prometheus: [] };
    const platformRates: Record<Variant, number[]> = { none: [], opentelemetry: [], prometheus: [] };
    await measure(cachedRun, 'none', cached); // warm-up, not counted
    await measure(platformRun, 'none', direct);
    for (let round = 0; round < rounds; round += 1) {
      for (const variant of VARIANTS) {
        cachedRates[variant].push(await measure(cachedRun, variant, cached));
        platformRates[variant].push(await measure(platformRun, variant, direct));
      }
    }
    const cachedOpsPerS = Object.fromEntries(VARIANTS.map((v) => [v, Math.round(median(cachedRates[v]))])) as Record<Variant, number>;
    const platformOpsPerS = Object.fromEntries(VARIANTS.map((v) => [v, Math.round(median(platformRates[v]))])) as Record<Variant, number>;
    const ratio = (rates: Record<Variant, number>): Record<Variant, number> =>
      Object.fromEntries(VARIANTS.map((v) => [v, Math.round((rates[v] / rates.none) * 1000) / 1000])) as Record<Variant, number>;
    const results = { cachedOpsPerS, platformOpsPerS, cachedRatio: ratio(cachedOpsPerS), platformRatio: ratio(platformOpsPerS), rounds };
    log('  variant        cache hit (verif/s)  ratio   platform E2 (verif/s)  ratio');
    for (const v of VARIANTS) {
      log(`  ${v.padEnd(14)} ${String(cachedOpsPerS[v]).padStart(19)}  ${results.cachedRatio[v].toFixed(3)}   ${String(platformOpsPerS[v]).padStart(21)}  ${results.platformRatio[v].toFixed(3)}`);
    }
    return results;
  } finally {
    await cached.close();
    await direct.close();
    await emulator.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const quick = process.argv.includes('--quick');
  runInstrumentation((line) => void process.stdout.write(`${line}\n`), quick ? 2 : 5, quick)
    .then((results) => process.stdout.write(`${JSON.stringify(results)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    });
}
