import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import type { MonotonicClock } from '../time/monotonic.js';
import type { CircuitMessage } from '../diagnostics/channels.js';

/** `closed`: calls go through; `open`: 503 at once; `half-open`: one probe call goes through. */
export type CircuitState = 'closed' | 'open' | 'half-open';

/** How a call ended, for the breaker: only transport faults are failures, never an answer about a token. */
export type CallVerdict = 'success' | 'failure' | 'ignored';

/**
 * Payload of the client's `'circuit'` event, one per state change: the
 * `circuit` channel's message without its `reason`. Times are monotonic
 * (`config.monotonic.now()`) values, immune to wall-clock steps.
 */
export type CircuitEvent = Omit<CircuitMessage, 'reason'>;

/** Whether an admitted call is the half-open probe. */
export interface CircuitPermit {
  readonly probe: boolean;
}

const circuitErrors = new WeakSet<PlatformError>();

/** True for the 503 an open circuit answers without calling the platform. */
export function isCircuitOpenError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && circuitErrors.has(error as PlatformError);
}

function circuitOpenError(endpoint: PlatformEndpoint): PlatformError {
  const error = errorForTransportFault('circuit_open', endpoint);
  circuitErrors.add(error);
  return error;
}

const PASS: CircuitPermit = Object.freeze({ probe: false });
const PROBE: CircuitPermit = Object.freeze({ probe: true });

/**
 * A consecutive-failure circuit breaker. After `failureThreshold` failed calls
 * in a row it opens: calls fail at once (503 `circuit_open`) for `openMs`.
 * Then it is half-open: one probe call goes through, and its outcome closes or
 * reopens it. Time is read from the monotonic `clock` on each call; no timer is ever set
 * (a timer would fire late after a sleep). A call started before the circuit opened does not change it.
 */
export class CircuitBreaker {
  #state: CircuitState = 'closed';
  #failures = 0;
  #openUntil = 0;
  #probeSince: number | undefined;

  readonly failureThreshold: number;
  readonly openMs: number;
  private readonly clock: MonotonicClock;
  private readonly onChange: (event: CircuitEvent) => void;

  constructor(
    failureThreshold: number,
    openMs: number,
    clock: MonotonicClock,
    onChange: (event: CircuitEvent) => void,
  ) {
    this.failureThreshold = failureThreshold;
    this.openMs = openMs;
    this.clock = clock;
    this.onChange = onChange;
  }

  /** The state now (an open circuit whose time is up reads as half-open). */
  stateFor(endpoint: PlatformEndpoint = 'E2'): CircuitState {
    if (this.#state === 'open' && this.clock.now() >= this.#openUntil) this.#change('half-open', endpoint);
    return this.#state;
  }

  /** Lets a call through (a permit to pass to {@link record}), or throws the `circuit_open` 503. */
  admit(endpoint: PlatformEndpoint): CircuitPermit {
    // Closed, the common case, stays closed until a call reports: no clock to read.
    if (this.#state === 'closed') return PASS;
    if (this.stateFor(endpoint) === 'open') throw circuitOpenError(endpoint);
    const now = this.clock.now();
    // One probe at a time; a probe that never reported (it cannot, as every
    // call is bounded, but be safe) is replaced after another open period.
    if (this.#probeSince !== undefined && now - this.#probeSince < this.openMs) throw circuitOpenError(endpoint);
    this.#probeSince = now;
    return PROBE;
  }

  /** Reports how an admitted call ended. */
  record(permit: CircuitPermit, verdict: CallVerdict, endpoint: PlatformEndpoint): void {
    if (permit.probe) {
      this.#probeSince = undefined;
      if (this.#state !== 'half-open' || verdict === 'ignored') return;
      if (verdict === 'success') this.#close(endpoint);
      else this.#open(endpoint);
      return;
    }
    if (this.#state !== 'closed' || verdict === 'ignored') return;
    if (verdict === 'success') {
      this.#failures = 0;
      return;
    }
    this.#failures += 1;
    if (this.#failures >= this.failureThreshold) this.#open(endpoint);
  }

  #open(endpoint: PlatformEndpoint): void {
    this.#openUntil = this.clock.now() + this.openMs;
    this.#change('open', endpoint);
  }

  #close(endpoint: PlatformEndpoint): void {
    this.#change('closed', endpoint);
    this.#failures = 0;
  }

  #change(state: CircuitState, endpoint: PlatformEndpoint): void {
    const previous = this.#state;
    this.#state = state;
    this.onChange({
      state, previous, failures: this.#failures, endpoint, ...(state === 'open' ? { openUntil: this.#openUntil } : {}),
    });
  }
}

/** The `'circuit'` event's payload from a `circuit` channel message. */
export function circuitEventOf(message: CircuitMessage): CircuitEvent {
  const { state, previous, failures, endpoint, openUntil } = message;
  return { state, previous, failures, endpoint, ...(openUntil === undefined ? {} : { openUntil }) };
}
