import { BENCH_PLATFORM } from './bench-seed.js';
import { startCpuMeter } from './cpu-meter.js';
import { runLoad } from './load.js';
import { playerRequests } from './request-mix.js';
import type { RequestBuilder } from './request-mix.js';
import { latencyKey, summarize } from './results.js';
import type { ByLatency, RunSummary } from './results.js';
import type { StageContext } from './stage-context.js';

/** The emulator's ceiling needs no long run. */
const EMULATOR_CHECK_S = 3;

async function apiToken(baseUrl: string): Promise<string> {
  const res = await fetch(`${baseUrl}/auth/v5/server_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_id: BENCH_PLATFORM.clientId, client_secret: BENCH_PLATFORM.clientSecret, service_id: BENCH_PLATFORM.gameId }),
  });
  const body = await res.json() as { code: number; response_data?: { access_token?: string } };
  const token = body.response_data?.access_token;
  if (body.code !== 0 || typeof token !== 'string') throw new Error(`E1 answered code ${body.code}`);
  return token;
}

function e2Request(api: string): RequestBuilder {
  return (token) => ({
    method: 'POST',
    path: `/member/v3.0/${BENCH_PLATFORM.gameId}/token/verify`,
    headers: { authorization: `Bearer ${api}`, 'caller-id': `${BENCH_PLATFORM.gameId}_SERVER`, 'content-type': 'application/json' },
    body: JSON.stringify({ access_token: token }),
  });
}

/** autocannon straight at E2: the emulator's own ceiling (it must not be the bottleneck). */
export async function runEmulatorCheck(ctx: StageContext): Promise<ByLatency<Omit<RunSummary, 'round'>>> {
  const { options, platform } = ctx;
  const api = await apiToken(platform.emulator.url);
  const results: ByLatency<Omit<RunSummary, 'round'>> = {};
  const warmTokens = await platform.mint(options.players);
  await runLoad({ url: platform.emulator.url, requests: playerRequests(warmTokens, options.burst, e2Request(api)), connections: options.connections, durationS: options.warmupS });
  for (const latencyMs of options.latenciesMs) {
    await platform.setLatency(latencyMs);
    const tokens = await platform.mint(options.players);
    await platform.resetCounts();
    const meter = await startCpuMeter(null, platform.emulator);
    const load = await runLoad({
      url: platform.emulator.url,
      requests: playerRequests(tokens, options.burst, e2Request(api)),
      connections: options.connections,
      durationS: Math.min(options.durationS, EMULATOR_CHECK_S),
    });
    const cpu = await meter.stop();
    const { round: _round, ...summary } = summarize(0, load, await platform.counts(), cpu);
    results[latencyKey(latencyMs)] = summary;
    ctx.log(`  emulator E2 direct, latency ${latencyMs} ms: ${load.rps.toFixed(0)} req/s  p50 ${load.p50Ms.toFixed(2)} ms  p99 ${load.p99Ms.toFixed(2)} ms  emulator CPU ${summary.cpuMicrosPerRequest.emulator.toFixed(0)} us/req${load.non2xx + load.errors ? `  FAILED ${load.non2xx + load.errors}` : ''}`);
  }
  await platform.setLatency(0);
  return results;
}
