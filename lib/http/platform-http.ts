import { performance } from 'node:perf_hooks';
import axios, { isAxiosError } from 'axios';
import type { AxiosInstance, AxiosResponse } from 'axios';
import axiosRetry from 'axios-retry';
import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { resolvePlatformConfig } from '../config/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import { createAgents, destroyAgents } from './agents.js';
import type { Agents } from './agents.js';
import { CallLimiter } from './call-limiter.js';
import { faultFromBadBody, faultFromError } from './fault-boundary.js';
import { BadBody, parsePlatformBody } from './platform-body.js';
import type { PlatformBody } from './platform-body.js';
import { retryOptions } from './retry-options.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;

export interface PlatformRequest {
  endpoint: PlatformEndpoint;
  method: 'GET' | 'POST';
  /** Relative path, already URL-encoded. */
  path: string;
  query?: Record<string, string>;
  headers: Record<string, string>;
  body?: Record<string, string>;
  /** `performance.now()` time by which the whole call must end; capped at `totalTimeoutMs`. */
  deadline?: number;
}

/** A parsed platform answer: the body's `code` decides, whatever the HTTP status. */
export interface PlatformReply extends PlatformBody {
  readonly status: number;
}

/** Filled in as the call proceeds, readable even when it throws. */
export interface CallStats {
  attempts: number;
}

/**
 * The HTTP layer: one dedicated axios instance with keep-alive agents, bounded
 * sizes, no redirects, no proxy, lossless JSON, explicit retries inside a
 * total budget, and a cap on calls in flight. Every failure leaves it as a
 * `PlatformError`; no AxiosError ever escapes.
 */
export class PlatformHttp {
  readonly config: ResolvedPlatformConfig;
  readonly #agents: Agents;
  readonly #axios: AxiosInstance;
  readonly #limiter: CallLimiter;

  constructor(config: PlatformConfig | ResolvedPlatformConfig) {
    this.config = resolvePlatformConfig(config);
    this.#agents = createAgents(this.config.maxConcurrentCalls);
    this.#limiter = new CallLimiter(this.config.maxConcurrentCalls, this.config.maxQueuedCalls);
    this.#axios = axios.create({
      baseURL: this.config.baseUrl,
      allowAbsoluteUrls: false,
      adapter: 'http',
      timeout: this.config.timeoutMs,
      maxRedirects: 0,
      maxContentLength: MAX_RESPONSE_BYTES,
      maxBodyLength: MAX_REQUEST_BYTES,
      proxy: false,
      ...this.#agents,
      validateStatus: () => true,
      responseType: 'text',
      responseEncoding: 'utf8',
      transformResponse: [parsePlatformBody],
      transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: false },
      headers: { Accept: 'application/json', 'User-Agent': 'passport-game-platform' },
    });
    axiosRetry(this.#axios, { retries: 0 });
  }

  /** Calls in flight and waiting (for health checks). */
  get load(): { active: number; queued: number } {
    return { active: this.#limiter.active, queued: this.#limiter.queued };
  }

  async request(req: PlatformRequest, stats: CallStats = { attempts: 0 }): Promise<PlatformReply> {
    const start = performance.now();
    const deadline = Math.min(req.deadline ?? Infinity, start + this.config.totalTimeoutMs);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, deadline - start));
    timer.unref();
    try {
      await this.#limiter.acquire(controller.signal, req.endpoint);
      try {
        return await this.#send(req, controller.signal, deadline, stats);
      } finally {
        this.#limiter.release();
      }
    } finally {
      clearTimeout(timer);
    }
  }

  /** Destroys the keep-alive agents; later calls open new sockets. */
  close(): void {
    destroyAgents(this.#agents);
  }

  async #send(req: PlatformRequest, signal: AbortSignal, deadline: number, stats: CallStats): Promise<PlatformReply> {
    let response: Pick<AxiosResponse, 'status' | 'data'>;
    stats.attempts += 1;
    try {
      const res = await this.#axios.request({
        method: req.method, url: req.path, params: req.query, headers: req.headers, data: req.body, signal,
        'axios-retry': retryOptions(this.config, { endpoint: req.endpoint, signal, deadline, stats }),
      });
      response = { status: res.status, data: res.data };
    } catch (error) {
      if (!isAxiosError(error) || !error.response) {
        throw faultFromError(error, req.endpoint, signal.aborted, this.config.totalTimeoutMs);
      }
      response = { status: error.response.status, data: error.response.data };
    }
    const { status, data } = response;
    if (data instanceof BadBody) throw faultFromBadBody(status, data.reason, req.endpoint);
    const body = data as PlatformBody;
    return { status, code: body.code, fields: body.fields };
  }
}
