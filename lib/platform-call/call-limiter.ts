import { performance } from 'node:perf_hooks';
import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import type { Abortable } from './deadline-signal.js';


interface Waiter {
  grant: () => void;
  fail: () => void;
  /** `performance.now()` when it joined the queue. */
  since: number;
}

/**
 * Caps the platform calls in flight. Excess callers wait in a bounded FIFO
 * queue; a full queue fails at once (503 `overloaded`), and a waiter whose
 * budget ends leaves the queue (503 `timeout`).
 */
export class CallLimiter {
  #active = 0;
  readonly #queue: Waiter[] = [];

  readonly maxActive: number;
  readonly maxQueued: number;

  constructor(maxActive: number, maxQueued: number) {
    this.maxActive = maxActive;
    this.maxQueued = maxQueued;
  }

  get active(): number {
    return this.#active;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** How long the first caller in the queue has waited, ms (0 when none waits). */
  get longestWaitMs(): number {
    const first = this.#queue[0];
    return first === undefined ? 0 : performance.now() - first.since;
  }

  /** Takes a slot when one is free (true), with no promise; else the caller waits with {@link acquire}. */
  tryAcquire(): boolean {
    if (this.#active >= this.maxActive) return false;
    this.#active += 1;
    return true;
  }

  /** `abortError` builds the rejection when `signal` aborts (default: 503 `timeout`). */
  acquire(signal: Abortable, endpoint: PlatformEndpoint, abortError?: () => unknown): Promise<void> {
    const failure = abortError ?? (() => errorForTransportFault('timeout', endpoint, 'waited too long for a free connection slot'));
    if (signal.aborted) return Promise.reject(failure());
    if (this.#active < this.maxActive) {
      this.#active += 1;
      return Promise.resolve();
    }
    if (this.#queue.length >= this.maxQueued) return Promise.reject(errorForTransportFault('overloaded', endpoint));
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        grant: () => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: () => reject(failure()),
        since: performance.now(),
      };
      const onAbort = (): void => {
        const index = this.#queue.indexOf(waiter);
        if (index >= 0) this.#queue.splice(index, 1);
        waiter.fail();
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  release(): void {
    const next = this.#queue.shift();
    if (next) next.grant();
    else this.#active -= 1;
  }
}
