import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { Attempt, Call } from './call-state.js';
import type { DeadlineSignal } from './deadline-signal.js';
import { classifyNoResponse, fullJitterDelay, isRetryableResponse, retryAfterMs } from './retry-policy.js';

/**
 * The wait before the next attempt, or `undefined` for none (what is retried, said explicitly):
 * the rules of retry-policy applied to one call, its retries counted and logged.
 */
export function retryDelay(attempt: Attempt, call: Call, config: ResolvedPlatformConfig): number | undefined {
  if (call.signal.aborted || call.callerGone) return undefined;
  const { retries, retryBaseDelayMs, retryMaxDelayMs, logger } = config;
  // Node's keep-alive race: a reused keep-alive socket closed by the server under us is
  // retried once at once, on top of (and even without) ordinary retries.
  if (attempt.status === undefined && attempt.code === 'ECONNRESET' && attempt.reused && !call.resetRetried) {
    call.resetRetried = true;
    logger.debug({ endpoint: call.endpoint, reason: 'ECONNRESET on a reused socket' }, 'retrying platform call');
    return 0;
  }
  if (call.retries >= retries) return undefined;
  if (attempt.status !== undefined) {
    // A 5xx or 429 whose JSON code is not 50000 is an answer: its code decides.
    if (!isRetryableResponse(attempt.status, attempt.body)) return undefined;
  } else if (!attempt.timedOut) {
    const kind = classifyNoResponse(attempt.code);
    if (kind !== 'network' && kind !== 'timeout') return undefined;
  }
  const jitter = fullJitterDelay(call.retries + 1, retryBaseDelayMs, retryMaxDelayMs);
  const retryAfter = attempt.status === undefined ? 0 : retryAfterMs(attempt.retryAfter, retryMaxDelayMs);
  const delay = Math.max(jitter, retryAfter);
  if (performance.now() + delay >= call.deadline) return undefined;
  call.retries += 1;
  const reason = attempt.status !== undefined ? `HTTP ${attempt.status}` : attempt.timedOut ? 'timeout' : attempt.code ?? 'network';
  logger.debug({ endpoint: call.endpoint, reason, retry: call.retries, delayMs: delay }, 'retrying platform call');
  return delay;
}

/** Waits `ms` before the next attempt, or less when the call's signal aborts first. */
export function pause(ms: number, signal: DeadlineSignal): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done);
  });
}
