import axios from 'axios';
import type { AxiosInstance } from 'axios';
import axiosRetry from 'axios-retry';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { Agents } from './agents.js';
import { parsePlatformBody } from './platform-body.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/**
 * The dedicated axios instance (trap 3): a per-attempt timeout, no redirects,
 * relative URLs only, no proxy from the environment, bounded sizes, keep-alive
 * agents, lossless JSON that never throws, every status handed back (the
 * body's code decides), and axios-retry installed with per-call options.
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
    validateStatus: () => true,
    responseType: 'text',
    responseEncoding: 'utf8',
    transformResponse: [parsePlatformBody],
    transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
    headers: { Accept: 'application/json', 'User-Agent': 'passport-game-platform' },
  });
  axiosRetry(instance, { retries: 0 });
  return instance;
}
