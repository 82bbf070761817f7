import { LatencyRecorder } from '../../bench/harness/latency-recorder.js';
import { parseBenchOptions } from '../../bench/harness/options.js';
import { rpsRatio } from '../../bench/harness/report.js';
import { bearerGet, playerRequests } from '../../bench/harness/request-mix.js';
import { sameRoundRatios } from '../../bench/harness/stage-side-by-side.js';
import type { CaseAtLatency, RunSummary, SideBySideRun } from '../../bench/harness/results.js';
import { growth, median, percentile, ratio, rotation } from '../../bench/harness/stats.js';

function run(round: number, rps: number): RunSummary {
  return {
    round, rps, p50Ms: 1, p99Ms: 2, meanMs: 1, requests: 1, non2xx: 0, errors: 0, timeouts: 0,
    platformCalls: { E1: 0, E2: 0, E3: 0, other: 0, connections: 0 }, platformCallsPerRequest: 0,
    cpuMicrosPerRequest: { server: 0, emulator: 0, loadGenerator: 0 },
  };
}

function atLatency(rps: number[]): CaseAtLatency {
  const rounds = rps.map((v, i) => run(i + 1, v));
  return { median: { rps: median(rps), p50Ms: 1, p99Ms: 2, platformCallsPerRequest: 0, serverCpuMicrosPerRequest: 0, newConnections: 0 }, rounds };
}

describe('bench statistics', () => {
  it('takes the median of odd and even counts, ignoring NaN', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([Number.NaN, 5])).toBe(5);
    expect(median([])).toBeNaN();
  });

  it('takes nearest-rank percentiles', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(values, 50)).toBe(50);
    expect(percentile(values, 99)).toBe(99);
    expect(percentile(values, 100)).toBe(100);
    expect(percentile([], 50)).toBeNaN();
  });

  it('gives NaN rather than Infinity for a zero denominator', () => {
    expect(ratio(1, 0)).toBeNaN();
    expect(growth(100, 110)).toBeCloseTo(0.1);
  });

  it('rotates the order of the cases from round to round', () => {
    expect(rotation(['a', 'b', 'c'], 0)).toEqual(['a', 'b', 'c']);
    expect(rotation(['a', 'b', 'c'], 1)).toEqual(['b', 'c', 'a']);
    expect(rotation(['a', 'b', 'c'], 4)).toEqual(['b', 'c', 'a']);
  });

  it('pairs ratios by round and reports the ratio of medians', () => {
    const r = rpsRatio(atLatency([100, 120, 90]), atLatency([100, 100, 100]));
    expect(r.perRound).toEqual([1, 1.2, 0.9]);
    expect(r.pairedMedian).toBe(1);
    expect(r.ofMedians).toBe(1);
  });

  it('records sub-millisecond latencies and grows past its first buffer', () => {
    const rec = new LatencyRecorder();
    for (let i = 0; i < 70_000; i += 1) rec.add((i % 100) / 10);
    expect(rec.count).toBe(70_000);
    const [p50, p99] = rec.percentiles([50, 99]);
    expect(p50).toBeCloseTo(4.9);
    expect(p99).toBeCloseTo(9.8);
  });
});

describe('the player mix', () => {
  type Setup = NonNullable<ReturnType<typeof playerRequests>[number]['setupRequest']>;
  const tokenOf = (req: ReturnType<Setup>): string | undefined => req?.headers?.authorization?.replace('Bearer ', '');

  it('sends each player token `burst` times in a row on one connection, then takes the next player', () => {
    const requests = playerRequests(['t1', 't2', 't3'], 3, bearerGet('/api/me'));
    expect(requests).toHaveLength(3);
    const seen: Array<string | undefined> = [];
    for (let burst = 0; burst < 4; burst += 1) {
      const context: Record<string, unknown> = {}; // autocannon resets it when the list wraps
      for (const r of requests) seen.push(tokenOf(r.setupRequest!({ path: '/' }, context)));
    }
    expect(seen).toEqual(['t1', 't1', 't1', 't2', 't2', 't2', 't3', 't3', 't3', 't1', 't1', 't1']);
  });

  it('shares one round-robin cursor between connections', () => {
    const requests = playerRequests(['a', 'b'], 1, bearerGet('/x'));
    const first = requests[0]!.setupRequest!;
    expect([tokenOf(first({}, {})), tokenOf(first({}, {})), tokenOf(first({}, {}))]).toEqual(['a', 'b', 'a']);
    expect(first({}, {})?.path).toBe('/x');
  });
});

describe('bench options', () => {
  it('uses short runs for --quick and the issue sizes otherwise', () => {
    expect(parseBenchOptions(['--quick'], {})).toMatchObject({ quick: true, durationS: 1, rounds: 1, memoryRequests: 20_000 });
    expect(parseBenchOptions([], {})).toMatchObject({ quick: false, rounds: 3, players: 1000, coldBurstRequests: 1000, memoryRequests: 200_000, memoryTokens: 20_000 });
  });

  it('gives the side-by-side stage the independent shape: 50 connections, 50 tokens, 7 rounds of 5 s (2 of 2 s quick)', () => {
    expect(parseBenchOptions([], {}).sideBySide).toMatchObject({ connections: 50, tokens: 50, durationS: 5, rounds: 7 });
    expect(parseBenchOptions(['--quick'], {}).sideBySide).toMatchObject({ connections: 50, tokens: 50, durationS: 2, rounds: 2 });
    expect(parseBenchOptions([], { BENCH_SBS_ROUNDS: '9', BENCH_SBS_DURATION_S: '3' }).sideBySide).toMatchObject({ durationS: 3, rounds: 9 });
  });

  it('reads BENCH_DURATION_S and BENCH_ROUNDS', () => {
    expect(parseBenchOptions([], { BENCH_DURATION_S: '2.5', BENCH_ROUNDS: '5' })).toMatchObject({ durationS: 2.5, rounds: 5 });
  });

  it('names the bad variable or argument', () => {
    expect(() => parseBenchOptions([], { BENCH_ROUNDS: '1.5' })).toThrow('BENCH_ROUNDS must be a positive integer, got "1.5"');
    expect(() => parseBenchOptions([], { BENCH_ONLY: 'steady,nope' })).toThrow('BENCH_ONLY: "nope" is not one of emulator, steady, cold-burst, memory');
    expect(() => parseBenchOptions(['--fast'], {})).toThrow('unknown argument "--fast" (only --quick)');
  });
});

describe('side-by-side ratios', () => {
  const sbs = (round: number, rps: number, p99Ms: number, cpu: number): SideBySideRun => ({ round, rps, p50Ms: 1, p99Ms, requests: 1, failed: 0, cpuMicrosPerRequest: cpu });

  it('pairs runs of the same round and reports the median of the ratios', () => {
    const app = [sbs(1, 90, 30, 110), sbs(2, 50, 20, 120), sbs(3, 80, 40, 100)];
    const floor = [sbs(1, 100, 20, 100), sbs(3, 100, 20, 100), sbs(2, 40, 20, 100)];
    const r = sameRoundRatios(app, floor);
    expect(r.rpsPerRound).toEqual([0.9, 1.25, 0.8]);
    expect(r.rps).toBe(0.9);
    expect(r.p99).toBe(1.5);
    expect(r.cpu).toBe(1.1);
  });

  it('leaves out a round one side skipped', () => {
    expect(sameRoundRatios([sbs(1, 90, 1, 1), sbs(2, 10, 1, 1)], [sbs(1, 100, 1, 1)]).rpsPerRound).toEqual([0.9]);
  });
});
