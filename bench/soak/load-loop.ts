import http from 'node:http';
import { performance } from 'node:perf_hooks';

/** What the load loop measured. Latencies are in ms. */
export interface LoadTally {
  sent: number;
  answered: number;
  /** Requests the loop could not start on time because `concurrency` were in flight. */
  notSent: number;
  /** Requests that got no HTTP answer (socket error, client timeout). */
  errors: number;
  byStatus: Record<string, number>;
  latencies: number[];
}

export interface LoadSpec {
  port: number;
  rate: number;
  concurrency: number;
  durationMs: number;
  /** The bearer token of the next request. */
  pick: () => string;
  /** Called every 100 ms with the requests sent so far. */
  onTick?: (sent: number) => void;
}

const CLIENT_TIMEOUT_MS = 30_000;
const TICK_MS = 10;

/**
 * A steady, open-loop load: `rate` requests per second of `GET /api/me`, at
 * most `concurrency` in flight (a request that cannot start on time is
 * counted in `notSent`, so the offered rate never drifts), for `durationMs`;
 * then waits for the requests in flight. Bounded: every request has a client
 * timeout.
 */
export function runLoad(spec: LoadSpec): Promise<LoadTally> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency });
  const tally: LoadTally = { sent: 0, answered: 0, notSent: 0, errors: 0, byStatus: {}, latencies: [] };
  let inFlight = 0;
  let due = 0;
  const started = performance.now();
  const fire = (): void => {
    inFlight += 1;
    tally.sent += 1;
    const t0 = performance.now();
    const done = (status: number | undefined): void => {
      inFlight -= 1;
      if (status === undefined) {
        tally.errors += 1;
        return;
      }
      tally.answered += 1;
      tally.byStatus[status] = (tally.byStatus[status] ?? 0) + 1;
      tally.latencies.push(performance.now() - t0);
    };
    const req = http.request({
      host: '127.0.0.1', port: spec.port, path: '/api/me', agent, timeout: CLIENT_TIMEOUT_MS,
      headers: { authorization: `Bearer ${spec.pick()}` },
    }, (res) => {
      res.resume();
      res.once('end', () => done(res.statusCode));
      res.once('error', () => done(undefined));
    });
    req.once('timeout', () => req.destroy(new Error('client timeout')));
    req.once('error', () => done(undefined));
    req.end();
  };
  return new Promise((resolve) => {
    let ticks = 0;
    const timer = setInterval(() => {
      const elapsed = performance.now() - started;
      const target = Math.floor((Math.min(elapsed, spec.durationMs) / 1000) * spec.rate);
      for (; due < target; due += 1) {
        if (inFlight < spec.concurrency) fire();
        else tally.notSent += 1;
      }
      ticks += 1;
      if (ticks % (100 / TICK_MS) === 0) spec.onTick?.(tally.sent);
      if (elapsed < spec.durationMs) return;
      clearInterval(timer);
      const drain = setInterval(() => {
        if (inFlight > 0 && performance.now() - started < spec.durationMs + CLIENT_TIMEOUT_MS + 1000) return;
        clearInterval(drain);
        agent.destroy();
        resolve(tally);
      }, 20);
    }, TICK_MS);
  });
}

/** The p-th percentile (0-100) of `values`, nearest rank; 0 when empty. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = Float64Array.from(values).sort();
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
