import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import { isAxiosError } from 'axios';
import type { AxiosInstance, AxiosResponse } from 'axios';
import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { resolvePlatformConfig } from '../config/index.js';
import { isTransientCode } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import { createAgents, destroyAgents } from './agents.js';
import type { Agents } from './agents.js';
import { CallLimiter } from './call-limiter.js';
import { CircuitBreaker } from './circuit-breaker.js';
import type { CallVerdict, CircuitEvent, CircuitState } from './circuit-breaker.js';
import { logCircuitChange } from './circuit-log.js';
import { DeadlineSignal } from './deadline-signal.js';
import { faultFromBadBody, faultFromError } from './fault-boundary.js';
import { createPlatformAxios } from './platform-axios.js';
import { BadBody } from './platform-body.js';
import type { PlatformBody } from './platform-body.js';
import { CALL_KEY, PlatformCall } from './retry-options.js';
import type { PlatformCallConfig } from './retry-options.js';

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

/** What {@link PlatformHttp.load} reports, for health checks. */
export interface HttpLoad {
  active: number;
  queued: number;
  /** `closed` also when the circuit breaker is turned off. */
  circuit: CircuitState;
}

/**
 * The HTTP layer: one dedicated axios instance with keep-alive agents, bounded
 * sizes, no redirects, no proxy, lossless JSON, explicit retries inside a
 * total budget, a cap on calls in flight and a circuit breaker. Every failure
 * leaves it as a `PlatformError`; no AxiosError ever escapes. Emits
 * `'circuit'` ({@link CircuitEvent}) on each state change of the breaker.
 */
export class PlatformHttp extends EventEmitter<{ circuit: [CircuitEvent] }> {
  readonly config: ResolvedPlatformConfig;
  readonly #agents: Agents;
  readonly #axios: AxiosInstance;
  readonly #limiter: CallLimiter;
  readonly #breaker: CircuitBreaker | undefined;

  constructor(config: PlatformConfig | ResolvedPlatformConfig) {
    super();
    this.config = resolvePlatformConfig(config);
    const breaker = this.config.circuitBreaker;
    this.#breaker = breaker === undefined ? undefined : new CircuitBreaker(
      breaker.failureThreshold, breaker.openMs, this.config.clock, (event) => this.#circuitChanged(event),
    );
    this.#agents = createAgents(this.config.maxConcurrentCalls);
    this.#limiter = new CallLimiter(this.config.maxConcurrentCalls, this.config.maxQueuedCalls);
    this.#axios = createPlatformAxios(this.config, this.#agents);
  }

  /** Calls in flight and waiting, and the circuit's state (for health checks). */
  get load(): HttpLoad {
    return { active: this.#limiter.active, queued: this.#limiter.queued, circuit: this.#breaker?.stateFor() ?? 'closed' };
  }

  /**
   * One platform call, retries included, within `totalTimeoutMs` (or the
   * request's earlier deadline). Fails at once with 503 while the circuit is
   * open. Resolves with any JSON answer carrying a `code`.
   */
  async request(req: PlatformRequest, stats: CallStats = { attempts: 0 }): Promise<PlatformReply> {
    const permit = this.#breaker?.admit(req.endpoint);
    // A call refused by our own limiter says nothing about the platform.
    let verdict: CallVerdict = 'ignored';
    const start = performance.now();
    const deadline = Math.min(req.deadline ?? Infinity, start + this.config.totalTimeoutMs);
    const signal = new DeadlineSignal(deadline - start);
    try {
      await this.#limiter.acquire(signal, req.endpoint);
      const budgetAtSend = deadline - performance.now();
      try {
        const reply = await this.#send(req, new PlatformCall(req.endpoint, signal, deadline, stats));
        // Any code but 50000 is an answer, a 40000 included (trap 12).
        verdict = isTransientCode(reply.code) ? 'failure' : 'success';
        return reply;
      } catch (error) {
        // Cut short by our own deadline (a long queue, a slow E1 before it): not the platform's fault.
        verdict = signal.aborted && budgetAtSend < this.config.timeoutMs ? 'ignored' : 'failure';
        throw error;
      } finally {
        this.#limiter.release();
      }
    } finally {
      signal.dispose();
      if (permit !== undefined) this.#breaker?.record(permit, verdict, req.endpoint);
    }
  }

  #circuitChanged(event: CircuitEvent): void {
    logCircuitChange(this.config, event);
    try {
      this.emit('circuit', event);
    } catch {
      // A throwing listener must not turn a platform answer into a failure.
    }
  }

  /** Destroys the keep-alive agents; later calls open new sockets. */
  close(): void {
    destroyAgents(this.#agents);
  }

  async #send(req: PlatformRequest, call: PlatformCall): Promise<PlatformReply> {
    let response: Pick<AxiosResponse, 'status' | 'data'>;
    call.stats.attempts += 1;
    try {
      const options: PlatformCallConfig = {
        method: req.method, url: req.path, params: req.query, headers: req.headers, data: req.body, signal: call.signal,
        [CALL_KEY]: call,
      };
      const res = await this.#axios.request(options);
      response = { status: res.status, data: res.data };
    } catch (error) {
      // After the last attempt a 5xx, a 429 or a retryable answer is read as any answer.
      if (!isAxiosError(error) || !error.response) {
        throw faultFromError(error, req.endpoint, call.signal.aborted, this.config.totalTimeoutMs);
      }
      response = { status: error.response.status, data: error.response.data };
    }
    const { status, data } = response;
    if (data instanceof BadBody) throw faultFromBadBody(status, data.reason, req.endpoint);
    const body = data as PlatformBody;
    return { status, code: body.code, fields: body.fields };
  }
}
