import autocannon from 'autocannon';
import { LatencyRecorder } from './latency-recorder.js';

/** One autocannon run: for `durationS` seconds, or until `amount` responses. */
export interface LoadSpec {
  url: string;
  requests: autocannon.Request[];
  connections: number;
  durationS?: number;
  amount?: number;
  timeoutS?: number;
  /** Fixed offered load, requests/s (default: as fast as the server answers). */
  overallRate?: number;
}

/** What a run measured. Latencies are of 2xx responses, in ms. */
export interface LoadResult {
  /** Requests written, including those still unanswered when a timed run stops. */
  sent: number;
  responses: number;
  ok: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  elapsedS: number;
  statusCodes: Record<string, number>;
}

export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const latencies = new LatencyRecorder();
  let responses = 0;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const instance = autocannon({
      url: spec.url,
      connections: spec.connections,
      requests: spec.requests,
      timeout: spec.timeoutS ?? 10,
      ...(spec.overallRate === undefined ? {} : { overallRate: spec.overallRate }),
      ...(spec.amount === undefined ? { duration: spec.durationS ?? 5 } : { amount: spec.amount }),
    }, (err, result) => {
      if (err) {
        reject(err);
        return;
      }
      const elapsedS = (performance.now() - started) / 1000;
      const [p50, p99] = latencies.percentiles([50, 99]);
      resolve({
        // At most one request per connection is unanswered when a run stops (no pipelining);
        // autocannon's own count is inflated when a rate is set.
        sent: Math.min(Math.max(result.requests.sent, responses), responses + spec.connections),
        responses,
        ok: latencies.count,
        rps: latencies.count / elapsedS,
        p50Ms: p50!,
        p99Ms: p99!,
        meanMs: latencies.mean(),
        non2xx: result.non2xx,
        errors: result.errors,
        timeouts: result.timeouts,
        elapsedS,
        statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, s]) => [code, s.count])),
      });
    });
    instance.on('response', (_client: unknown, statusCode: number, _bytes: number, ms: number) => {
      responses += 1;
      if (statusCode >= 200 && statusCode < 300) latencies.add(ms);
    });
  });
}
