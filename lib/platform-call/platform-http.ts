import { performance } from 'node:perf_hooks';
import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { resolvePlatformConfig } from '../config/index.js';
import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { CallLimiter } from './call-limiter.js';
import { CircuitBreaker } from './circuit-breaker.js';
import type { CallVerdict, CircuitEvent, CircuitState } from './circuit-breaker.js';
import { logCircuitChange } from './circuit-log.js';
import { DeadlineSignal } from './deadline-signal.js';
import type { Abortable } from './deadline-signal.js';
import { abortedError } from './aborted.js';
import { faultFromBadBody, faultFromError } from './fault-boundary.js';
import { BadBody, isTransientCode, parsePlatformBody } from './platform-body.js';
import type { PlatformBody } from './platform-body.js';
import type { Attempt, Call, CallStats } from './call-state.js';
import { pause, retryDelay } from './retry-delay.js';
import { countsAsPlatformFailure } from './retry-policy.js';
import { trace } from '../diagnostics/publish.js';
import { Transport, TransportError } from './transport.js';
import { circuitChannel, platformCallChannel } from '../diagnostics/channels.js';
import type { CircuitMessage, PlatformCallMessage } from '../diagnostics/channels.js';
import type { Teller } from '../diagnostics/channel-view.js';

export type { CallStats } from './call-state.js';

/** One call to the platform, as the HTTP layer sends it. */
export interface PlatformRequest {
  endpoint: PlatformEndpoint;
  method: 'GET' | 'POST';
  /** Relative path, already URL-encoded. */
  path: string;
  query?: Record<string, string>;
  /** Never changed once sent: the transport reuses its merge with its own headers while the same object comes back. */
  headers: Record<string, string>;
  body?: Record<string, string>;
}

/** `/member/v3.0/{game_id}`, the base of E2, E3 and the web-token check. */
export function memberPath(config: ResolvedPlatformConfig): string {
  return `/member/v3.0/${encodeURIComponent(config.gameId)}`;
}

// The platform lists Content-Type: application/json for E2 and E3 alike (E3 is a GET with no body).
/** The headers of a call authenticated with the API token. */
export function apiHeaders(config: ResolvedPlatformConfig, apiToken: string): Record<string, string> {
  return { Authorization: `Bearer ${apiToken}`, 'caller-id': config.callerId, 'Content-Type': 'application/json' };
}

/**
 * Where a call comes from: one budget and one signal, computed once per
 * operation (a verification, its API-token wait and its E3 completion
 * included) and carried down to the socket.
 */
export interface CallContext {
  /** `performance.now()` time by which the whole call must end; capped at `totalTimeoutMs` when absent. */
  deadline?: number;
  /**
   * The operation's signal. A `DeadlineSignal` that already carries the
   * deadline is used as the call's own (no second timer); any other signal
   * (an `AbortSignal`) is followed. When it aborts because its caller has
   * gone, a queued call leaves the queue; one in flight keeps its slot until
   * the platform answers, or until a living caller has waited a second for a
   * slot.
   */
  signal?: Abortable;
}

/** A context whose deadline is set. */
export type BoundedContext = CallContext & { deadline: number };

/**
 * The one place a call's budget is made: the caller's context when it already has a deadline
 * (a verification's, made once by its single flight), else `totalTimeoutMs` from `now` with the
 * caller's signal.
 */
export function boundedContext(given: CallContext, totalTimeoutMs: number, now: number = performance.now()): BoundedContext {
  return given.deadline !== undefined ? (given as BoundedContext) : { deadline: now + totalTimeoutMs, signal: given.signal };
}

/** A parsed platform answer: the body's `code` decides, whatever the HTTP status. */
export interface PlatformReply extends PlatformBody {
  readonly status: number;
}

/** What the HTTP layer's `load` reports (calls in flight and queued), for health checks. */
export interface HttpLoad {
  active: number;
  queued: number;
  /** `closed` also when the circuit breaker is turned off. */
  circuit: CircuitState;
}

/**
 * How long a living caller waits for a slot before a call whose caller has
 * gone gives it up. Clients that ask and leave sooner (a flood of abandoned
 * handshakes) never start a call for a slot freed early, so the platform
 * works for at most `maxConcurrentCalls` gone callers at a time; a player
 * behind them waits this long, not a slow platform's whole answer.
 */
const RECLAIM_AFTER_MS = 1000;

/**
 * The HTTP layer: an undici keep-alive pool, bounded sizes, no redirects, no
 * proxy, lossless JSON; explicit retries inside a total budget, each attempt
 * (its body included) bounded by `timeoutMs`; a cap on calls in flight and a
 * circuit breaker. Every failure leaves it as a `PlatformError` holding no
 * request, header or body. Each state change of the breaker is told once,
 * on the `circuit` channel (and the owning client's `'circuit'` event).
 */
export class PlatformHttp {
  readonly config: ResolvedPlatformConfig;
  /** Where each state change of the breaker is told (the client: its `'circuit'` event and channel); none: the channel alone. */
  events: Teller<'circuit'> | undefined;
  readonly #transport: Transport;
  readonly #limiter: CallLimiter;
  readonly #breaker: CircuitBreaker | undefined;
  /**
   * Calls under way (queued or in flight), ended with 503 by {@link close}: a list threaded
   * through the calls themselves (`older`, `newer`), the newest first. Joining and leaving it
   * allocate nothing and a call that has left keeps no link, where a long-lived `Set` written and
   * emptied on every call would rebuild its table every few dozen calls, each old table keeping a
   * link to the next (see the flights' table in single-flight.ts).
   */
  #newest: Call | undefined;
  #running = 0;
  /** Calls in flight whose caller has gone (left running to keep their connection): given up for a caller that has waited RECLAIM_AFTER_MS. */
  readonly #abandoned = new Set<Call>();
  #settled: (() => void) | undefined;
  #closed = false;
  /** `host[:port]` of the platform, for the `platform-call` channel. */
  readonly #host: string;

  constructor(config: PlatformConfig | ResolvedPlatformConfig) {
    this.config = resolvePlatformConfig(config);
    const breaker = this.config.circuitBreaker;
    this.#breaker = breaker === undefined ? undefined : new CircuitBreaker(
      breaker.failureThreshold, breaker.openMs, this.config.monotonic, (event) => this.#circuitChanged(event),
    );
    this.#limiter = new CallLimiter(this.config.maxConcurrentCalls, this.config.maxQueuedCalls);
    this.#transport = new Transport(this.config.baseUrl, { timeoutMs: this.config.timeoutMs });
    this.#host = new URL(this.config.baseUrl).host;
  }

  /** Calls in flight and waiting, and the circuit's state (for health checks). */
  get load(): HttpLoad {
    return { active: this.#limiter.active, queued: this.#limiter.queued, circuit: this.#breaker?.stateFor() ?? 'closed' };
  }

  /** True once {@link close} was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /**
   * One platform call, retries included, within `totalTimeoutMs` (or the
   * context's earlier deadline). Fails at once with 503 while the circuit is
   * open or after {@link close}. Resolves with any JSON answer carrying a `code`.
   */
  async request(req: PlatformRequest, stats: CallStats = { attempts: 0 }, context: CallContext = {}): Promise<PlatformReply> {
    if (this.#closed) throw errorForTransportFault('closed', req.endpoint);
    const given = context.signal;
    if (given?.aborted === true) {
      const reason = given instanceof DeadlineSignal ? given.reason : 'caller';
      throw reason === 'deadline' ? errorForTransportFault('timeout', req.endpoint, `no answer within the ${this.config.totalTimeoutMs} ms budget`) : endedError(given as DeadlineSignal, req.endpoint, abortedError(req.endpoint), this.#closed);
    }
    const permit = this.#breaker?.admit(req.endpoint);
    // A call refused by our own limiter, or given up by its caller, says nothing about the platform.
    let verdict: CallVerdict = 'ignored';
    const now = performance.now();
    const { deadline } = boundedContext(context, this.config.totalTimeoutMs, now);
    // The operation's own signal already runs to its deadline: no second timer for the same budget.
    const owned = !(given instanceof DeadlineSignal) || context.deadline === undefined;
    const signal = owned ? new DeadlineSignal(deadline - now, given, 'caller') : given;
    const call: Call = {
      endpoint: req.endpoint, signal, deadline, stats, retries: 0, resetRetried: false, admitted: false, callerGone: false, exchange: undefined, older: this.#newest, newer: undefined,
    };
    // The caller went away: a queued call leaves the queue at once (the limiter watches the signal).
    // One in flight keeps its slot: the platform is working on it whether we read the answer or
    // not, so the cap keeps counting it. Its exchange completes (nobody reads the answer, the
    // keep-alive connection stays in the pool), unless a living caller has waited RECLAIM_AFTER_MS
    // for a slot (see #reclaimSlot). A deadline or close stops the attempt at once.
    const onAbort = (): void => {
      if (signal.reason === 'caller') {
        call.callerGone = true;
        if (!call.admitted) return;
        this.#abandoned.add(call);
        if (this.#limiter.longestWaitMs >= RECLAIM_AFTER_MS) this.#reclaimSlot();
        return;
      }
      call.exchange?.cancel();
    };
    signal.addEventListener('abort', onAbort);
    if (this.#newest !== undefined) this.#newest.newer = call;
    this.#newest = call;
    this.#running += 1;
    try {
      // A free slot is taken at once (no promise to wait on); only a queued call sets the reclaim timer.
      if (!this.#limiter.tryAcquire()) {
        const waiting = setTimeout(() => this.#reclaimSlot(), RECLAIM_AFTER_MS);
        try {
          await this.#limiter.acquire(signal, req.endpoint, () => endedError(signal, req.endpoint, undefined, this.#closed)
            ?? errorForTransportFault('timeout', req.endpoint, 'waited too long for a free connection slot'));
        } finally {
          clearTimeout(waiting);
        }
      }
      call.admitted = true;
      const budgetAtSend = deadline - performance.now();
      try {
        // The caller left between the grant and this line (the limiter had stopped watching): send nothing.
        if (call.callerGone) throw abortedError(req.endpoint);
        // Attempts until an answer decides, the retries are spent, or the budget ends: in this
        // frame, not an async function of its own per call.
        let attempt: Attempt;
        for (;;) {
          call.stats.attempts += 1;
          attempt = await (platformCallChannel.hasSubscribers
            ? tracedAttempt(this.#transport, req, call, this.config.timeoutMs, this.#host)
            : sendAttempt(this.#transport, req, call, this.config.timeoutMs));
          // An answer in the platform's JSON decides unless its code is 50000: the common case
          // (any success or refusal) has no retry to weigh.
          if (attempt.status !== undefined && !(attempt.body instanceof BadBody) && !isTransientCode(attempt.body.code)) break;
          const delay = retryDelay(attempt, call, this.config);
          if (delay === undefined) break;
          await pause(delay, call.signal);
          if (call.signal.aborted) break;
        }
        const { reply, failure } = callOutcome(attempt, call, this.config);
        if (reply !== undefined) {
          // Any code but 50000 is an answer, a 40000 included (only 50000 means the platform itself failed).
          verdict = isTransientCode(reply.code) ? 'failure' : 'success';
          return reply;
        }
        verdict = failure.verdict;
        throw failure.error;
      } catch (error) {
        if (call.callerGone || signal.reason === 'closed' || this.#closed) verdict = 'ignored';
        // Cut short by our own deadline (a long queue, a slow E1 before it): not the platform's fault.
        else if (signal.reason === 'deadline' && budgetAtSend < this.config.timeoutMs) verdict = 'ignored';
        throw endedError(signal, req.endpoint, error, this.#closed);
      } finally {
        this.#limiter.release();
      }
    } catch (error) {
      throw endedError(signal, req.endpoint, error, this.#closed);
    } finally {
      signal.removeEventListener('abort', onAbort);
      if (owned) signal.dispose();
      const { older, newer } = call;
      if (older !== undefined) older.newer = newer;
      if (newer !== undefined) newer.older = older;
      else this.#newest = older;
      call.older = undefined;
      call.newer = undefined;
      this.#running -= 1;
      this.#abandoned.delete(call);
      if (this.#running === 0) this.#settled?.();
      if (permit !== undefined) this.#breaker?.record(permit, verdict, req.endpoint);
    }
  }

  /** A living caller has waited RECLAIM_AFTER_MS for a slot: stop a call whose caller has gone, and the slot passes to the queue. */
  #reclaimSlot(): void {
    for (const abandoned of this.#abandoned) {
      this.#abandoned.delete(abandoned);
      abandoned.exchange?.cancel();
      return;
    }
  }

  /**
   * Stops the layer: new calls fail at once (503, "the platform client is
   * closed"), calls queued or in flight end with that 503 (no retry on a new
   * socket), and every socket is destroyed. Resolves once no call is left.
   */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#running > 0) {
      const settled = new Promise<void>((resolve) => {
        this.#settled = resolve;
      });
      const running: Call[] = [];
      for (let call = this.#newest; call !== undefined; call = call.older) running.push(call);
      for (const call of running) {
        call.signal.abort('closed');
        // A call whose caller had gone already holds an aborted signal: stop its exchange directly.
        call.exchange?.cancel();
      }
      await settled;
    }
    await this.#transport.close();
  }

  #circuitChanged(event: CircuitEvent): void {
    logCircuitChange(this.config, event);
    const events = this.events;
    if (!(events === undefined ? circuitChannel.hasSubscribers : events.heard('circuit'))) return;
    const message: CircuitMessage = { ...event, reason: `${event.endpoint}: ${event.previous} -> ${event.state}` };
    if (events === undefined) circuitChannel.publish(message);
    else events.tell('circuit', message);
  }
}

// The steps `PlatformHttp.request` composes per attempt, beside it: one attempt over the
// transport, its tracing (a wrapper around the same step, called only while the channel has
// subscribers) and the reading of the last attempt. The wait before a retry runs only when one
// is needed, in its own file (retry-delay).

/**
 * One attempt over the transport, bounded by `timeoutMs` within the call's deadline: its
 * promise resolves with how it ended, never rejects. A promise chain rather than an async
 * function: one frame fewer per call.
 */
export function sendAttempt(transport: Transport, req: PlatformRequest, call: Call, timeoutMs: number): Promise<Attempt> {
  const { signal } = call;
  if (signal.aborted && signal.reason !== 'caller') {
    return Promise.resolve({ status: undefined, error: new TransportError('ERR_CANCELED', false), code: 'ERR_CANCELED', reused: false, timedOut: false });
  }
  // The attempt's own time (headers and body alike), within the call's.
  // When the call's deadline comes first, its own timer ends the attempt: no second one.
  const left = call.deadline - performance.now();
  const exchange = transport.start(req, Math.min(timeoutMs, left), timeoutMs < left);
  call.exchange = exchange;
  return exchange.done.then(
    (res) => {
      call.exchange = undefined;
      return { status: res.status, body: parsePlatformBody(res.text), retryAfter: res.retryAfter };
    },
    (error: unknown) => {
      call.exchange = undefined;
      const fault = error instanceof TransportError ? error : new TransportError(undefined, false);
      return { status: undefined, error: fault, code: fault.code, reused: fault.reused, timedOut: fault.code === 'ETIMEDOUT' && !signal.aborted };
    },
  );
}

/**
 * One attempt told on the `platform-call` channel (only while it has subscribers): the same
 * attempt as {@link sendAttempt}, wrapped, its answer read into the message once it has ended.
 * `timeoutMs` bounds the attempt as there; `host` is the platform's `host[:port]`.
 */
export function tracedAttempt(transport: Transport, req: PlatformRequest, call: Call, timeoutMs: number, host: string): Promise<Attempt> {
  const message: PlatformCallMessage = {
    endpoint: req.endpoint, method: req.method, host, path: req.path, attempt: call.stats.attempts,
  };
  const started = performance.now();
  return trace(platformCallChannel, message, async () => {
    const attempt = await sendAttempt(transport, req, call, timeoutMs);
    message.durationMs = performance.now() - started;
    if (attempt.status !== undefined) {
      message.statusCode = attempt.status;
      if (attempt.body instanceof BadBody) message.outcome = 'fault';
      else {
        message.code = attempt.body.code;
        message.outcome = attempt.body.code === 0 ? 'ok' : isTransientCode(attempt.body.code) ? 'fault' : 'refused';
      }
    } else {
      message.outcome = attempt.timedOut ? 'timeout' : call.signal.aborted ? (call.signal.reason === 'deadline' ? 'timeout' : 'aborted') : 'fault';
    }
    return attempt;
  });
}

/** The last attempt, read as the call's result. */
export function callOutcome(attempt: Attempt, call: Call, config: ResolvedPlatformConfig):
  { reply: PlatformReply; failure?: undefined } | { reply?: undefined; failure: { error: PlatformError; verdict: CallVerdict } } {
  const { endpoint } = call;
  if (attempt.status === undefined) {
    const error = attempt.timedOut
      ? errorForTransportFault('timeout', endpoint, `no answer within the ${config.timeoutMs} ms of an attempt`)
      : faultFromError(attempt.error, endpoint, call.signal.aborted, config.totalTimeoutMs);
    return { failure: { error, verdict: 'failure' } };
  }
  const { status, body } = attempt;
  if (body instanceof BadBody) {
    // An edge's HTML 4xx (a firewall refusing an attacker's token) is not the platform failing.
    return { failure: { error: faultFromBadBody(status, body.reason, endpoint), verdict: countsAsPlatformFailure(status) ? 'failure' : 'ignored' } };
  }
  return { reply: { status, code: body.code, fields: body.fields } };
}

/** The error a call ends with when its own signal stopped it, or the layer was closed (`closed`). */
function endedError(signal: DeadlineSignal | undefined, endpoint: PlatformEndpoint, error: unknown, closed: boolean): unknown {
  if (signal?.reason === 'closed' || closed) return errorForTransportFault('closed', endpoint);
  if (signal?.reason === 'caller') return abortedError(endpoint);
  return error;
}
