import { performance } from 'node:perf_hooks';
import type { AxiosError, AxiosInstance, AxiosRequestConfig } from 'axios';
import axiosRetry from 'axios-retry';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import type { DeadlineSignal } from './deadline-signal.js';
import { classifyNoResponse, fullJitterDelay, isRetryableResponse, retryAfterMs } from './retry-policy.js';

/** The request config field holding the call's {@link PlatformCall}. */
export const CALL_KEY = 'platformCall';

/**
 * Per-call retry context, read by the instance-level axios-retry hooks. A
 * class instance: axios's mergeConfig copies it by reference, where a plain
 * object would be deep-merged on every request.
 */
export class PlatformCall {
  retries = 0;
  resetRetried = false;
  delayMs = 0;

  constructor(
    readonly endpoint: PlatformEndpoint,
    readonly signal: DeadlineSignal,
    /** `performance.now()` time at which the whole call's budget ends. */
    readonly deadline: number,
    readonly stats: { attempts: number },
  ) {}
}

export type PlatformCallConfig = AxiosRequestConfig & { [CALL_KEY]: PlatformCall };

function callOf(config: AxiosRequestConfig | undefined): PlatformCall | undefined {
  const call = (config as Partial<PlatformCallConfig> | undefined)?.[CALL_KEY];
  return call instanceof PlatformCall ? call : undefined;
}

/**
 * Installs axios-retry once on the instance. Retried: network errors
 * (ECONNRESET, ECONNREFUSED, socket hang up...), per-attempt timeouts,
 * 5xx/429/2xx bodies that are not the platform's JSON, and code 50000, on GET
 * and POST alike (E1/E2 are idempotent for us). At most `retries` times, with
 * capped full jitter, and never past the deadline. Each attempt gets the full
 * `timeoutMs` (`shouldResetTimeout: true`); the deadline bounds the total.
 */
export function installRetry(instance: AxiosInstance, config: ResolvedPlatformConfig): void {
  const { retries, retryBaseDelayMs, retryMaxDelayMs, logger } = config;
  const retryCondition = (error: AxiosError): boolean => {
    const call = callOf(error.config);
    if (call === undefined || call.signal.aborted) return false;
    const { response } = error;
    // Trap 11: a reused keep-alive socket closed by the server under us is
    // retried once at once, on top of (and even without) ordinary retries.
    const reused = (error.request as { reusedSocket?: boolean } | undefined)?.reusedSocket === true;
    if (!response && error.code === 'ECONNRESET' && reused && !call.resetRetried) {
      call.resetRetried = true;
      call.delayMs = 0;
      logger.debug({ endpoint: call.endpoint, reason: 'ECONNRESET on a reused socket' }, 'retrying platform call');
      return true;
    }
    if (call.retries >= retries) return false;
    if (response) {
      // A 5xx or 429 whose JSON code is not 50000 is an answer: its code decides.
      if (!isRetryableResponse(response.status, response.data)) return false;
    } else {
      const kind = classifyNoResponse(error.code);
      if (kind !== 'network' && kind !== 'timeout') return false;
    }
    const jitter = fullJitterDelay(call.retries + 1, retryBaseDelayMs, retryMaxDelayMs);
    const delay = Math.max(jitter, retryAfterMs(response?.headers['retry-after'], retryMaxDelayMs));
    if (performance.now() + delay >= call.deadline) return false;
    call.retries += 1;
    call.delayMs = delay;
    const reason = response ? `HTTP ${response.status}` : error.code ?? 'network';
    logger.debug({ endpoint: call.endpoint, reason, retry: call.retries, delayMs: delay }, 'retrying platform call');
    return true;
  };
  axiosRetry(instance, {
    retries: retries + 1,
    shouldResetTimeout: true,
    retryCondition,
    retryDelay: (_retryCount, error) => callOf(error.config)?.delayMs ?? 0,
    onRetry: (_retryCount, _error, requestConfig) => {
      const call = callOf(requestConfig);
      if (call) call.stats.attempts += 1;
    },
  });
}
