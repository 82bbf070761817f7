import { performance } from 'node:perf_hooks';
import type { AxiosError, AxiosResponse } from 'axios';
import type { IAxiosRetryConfig } from 'axios-retry';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import { classifyNoResponse, fullJitterDelay, isRetryableResponse, retryAfterMs } from './retry-policy.js';

export interface RetryContext {
  endpoint: PlatformEndpoint;
  signal: AbortSignal;
  /** `performance.now()` time at which the whole call's budget ends. */
  deadline: number;
  stats: { attempts: number };
}

/**
 * Per-call axios-retry options. Retried: network errors (ECONNRESET,
 * ECONNREFUSED, socket hang up...), per-attempt timeouts, 5xx/429/2xx bodies
 * that are not the platform's JSON, and code 50000, on GET and POST alike
 * (E1/E2 are idempotent for us). At most `retries` times, with capped full
 * jitter, and never past the deadline. Each attempt gets the full
 * `timeoutMs` (`shouldResetTimeout: true`); the deadline bounds the total.
 */
export function retryOptions(config: ResolvedPlatformConfig, ctx: RetryContext): IAxiosRetryConfig {
  const { retries, retryBaseDelayMs, retryMaxDelayMs, logger } = config;
  const { endpoint, signal, deadline, stats } = ctx;
  const state = { retries: 0, resetRetried: false, delayMs: 0 };
  const retryCondition = (error: AxiosError): boolean => {
    if (signal.aborted) return false;
    // Trap 11: a reused keep-alive socket closed by the server under us is
    // retried once at once, on top of (and even without) ordinary retries.
    const reused = (error.request as { reusedSocket?: boolean } | undefined)?.reusedSocket === true;
    if (!error.response && error.code === 'ECONNRESET' && reused && !state.resetRetried) {
      state.resetRetried = true;
      state.delayMs = 0;
      logger.debug({ endpoint, reason: 'ECONNRESET on a reused socket' }, 'retrying platform call');
      return true;
    }
    if (state.retries >= retries) return false;
    if (!error.response) {
      const kind = classifyNoResponse(error.code);
      if (kind !== 'network' && kind !== 'timeout') return false;
    }
    const jitter = fullJitterDelay(state.retries + 1, retryBaseDelayMs, retryMaxDelayMs);
    const delay = Math.max(jitter, retryAfterMs(error.response?.headers['retry-after'], retryMaxDelayMs));
    if (performance.now() + delay >= deadline) return false;
    state.retries += 1;
    state.delayMs = delay;
    const reason = error.response ? `HTTP ${error.response.status}` : error.code ?? 'network';
    logger.debug({ endpoint, reason, retry: state.retries, delayMs: delay }, 'retrying platform call');
    return true;
  };
  return {
    retries: retries + 1,
    shouldResetTimeout: true,
    validateResponse: (res: AxiosResponse) => !isRetryableResponse(res.status, res.data),
    retryCondition,
    retryDelay: () => state.delayMs,
    onRetry: () => {
      stats.attempts += 1;
    },
  };
}
