import axios from 'axios';
import type { AxiosInstance } from 'axios';
import type { ResolvedPlatformConfig } from '../config/index.js';
import type { Agents } from './agents.js';
import { parsePlatformBody } from './platform-body.js';
import type { ParsedBody } from './platform-body.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** Every status resolves: the body's code decides, and a success never becomes an AxiosError. */
export function resolvesStatus(): boolean {
  return true;
}

/** axios `transformResponse`: the lossless parse; never throws (a bad body is a `BadBody`). */
export function transformPlatformResponse(data: unknown): ParsedBody {
  return parsePlatformBody(data);
}

/**
 * The dedicated axios instance (trap 3): no redirects, relative URLs only, no
 * proxy from the environment, bounded sizes, keep-alive agents, lossless
 * JSON. No axios timeout and no retry interceptor: the HTTP layer times each
 * attempt (headers and body) with its own signal and runs the retries itself.
 */
export function createPlatformAxios(config: ResolvedPlatformConfig, agents: Agents): AxiosInstance {
  return axios.create({
    baseURL: config.baseUrl,
    allowAbsoluteUrls: false,
    adapter: 'http',
    timeout: 0,
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
}
