import axios, { AxiosError } from 'axios';
import type { AxiosInstance, AxiosResponseHeaders, InternalAxiosRequestConfig } from 'axios';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { Agents } from './agents.js';
import { parsePlatformBody } from './platform-body.js';
import type { ParsedBody } from './platform-body.js';
import { installRetry } from './retry-options.js';
import { isRetryableResponse } from './retry-policy.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** 5xx and 429 reject, so that axios-retry sees them; every other status resolves. */
export function resolvesStatus(status: number): boolean {
  return status < 500 && status !== 429;
}

/**
 * axios `transformResponse`: the lossless parse, and the one place a resolved
 * answer becomes an error. A 50000, or a 2xx that is not the platform's JSON,
 * on a status that resolves is thrown as an AxiosError holding the parsed body,
 * so that axios-retry retries it; after the last attempt the fault boundary
 * reads the body as for a 5xx. Rejected statuses are left to axios-retry as
 * they are: the success path never builds an error.
 */
export function transformPlatformResponse(
  this: InternalAxiosRequestConfig, data: unknown, headers: AxiosResponseHeaders, status?: number,
): ParsedBody {
  const body = parsePlatformBody(data);
  if (status === undefined || !resolvesStatus(status) || !isRetryableResponse(status, body)) return body;
  throw new AxiosError(`retryable platform answer (HTTP ${status})`, AxiosError.ERR_BAD_RESPONSE, this, undefined, {
    status, statusText: '', headers, config: this, data: body,
  });
}

/**
 * The dedicated axios instance (trap 3): a per-attempt timeout, no redirects,
 * relative URLs only, no proxy from the environment, bounded sizes, keep-alive
 * agents, lossless JSON, and axios-retry installed once, its hooks reading each
 * call's context from the request config.
 */
export function createPlatformAxios(config: ResolvedPlatformConfig, agents: Agents): AxiosInstance {
  const instance = axios.create({
    baseURL: config.baseUrl,
    allowAbsoluteUrls: false,
    adapter: 'http',
    timeout: config.timeoutMs,
    maxRedirects: 0,
    maxContentLength: MAX_RESPONSE_BYTES,
    maxBodyLength: MAX_REQUEST_BYTES,
    proxy: false,
    ...agents,
    validateStatus: resolvesStatus,
    responseType: 'text',
    responseEncoding: 'utf8',
    transformResponse: [transformPlatformResponse],
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
    headers: { Accept: 'application/json', 'User-Agent': 'passport-game-platform' },
  });
  installRetry(instance, config);
  return instance;
}
