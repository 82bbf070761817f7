import type { PlatformEndpoint } from '../errors/index.js';
import { abortedError } from './aborted.js';
import { DeadlineSignal } from './deadline-signal.js';
import type { Abortable } from './deadline-signal.js';
import type { CallContext } from './platform-http.js';

interface Flight<T> {
  readonly promise: Promise<T>;
  /** The shared work's signal: its budget, and aborted once every caller that could go has gone. */
  readonly signal: DeadlineSignal | undefined;
  /** Callers still waiting that may go away; a caller without a signal pins the work. */
  waiting: number;
  pinned: boolean;
}

/**
 * Concurrent callers with the same key share one piece of work: the one
 * mechanism behind the shared E1 call and the shared verification of a
 * token. With a budget, the work gets one context (deadline and signal)
 * built once, carried down to the socket. A caller whose signal aborts stops
 * waiting at once; the shared work is aborted only when every caller has
 * gone (the player who hung up costs nothing more; the one still waiting
 * keeps its answer).
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, Flight<T>>();

  /**
   * @param endpoint names the operation of a key, for the error of a caller that went away.
   * @param budgetMs the time each shared piece of work may take (none: unbounded, no timer).
   */
  constructor(private readonly endpoint: (key: string) => PlatformEndpoint, private readonly budgetMs?: number) {}

  /** Keys with work in flight. */
  get size(): number {
    return this.#flights.size;
  }

  run(key: string, work: (context: CallContext) => Promise<T>, signal?: Abortable): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(abortedError(this.endpoint(key)));
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      const budget = this.budgetMs;
      // One signal for the whole operation, a timer-less one when there is no budget and no caller
      // can leave (an AbortController and its EventTarget per request cost more).
      const shared = budget !== undefined ? new DeadlineSignal(budget) : signal !== undefined ? new DeadlineSignal(Infinity) : undefined;
      const context: CallContext = budget === undefined ? (shared === undefined ? {} : { signal: shared }) : { deadline: performance.now() + budget, signal: shared };
      const promise = work(context);
      const created: Flight<T> = { promise, signal: shared, waiting: 0, pinned: false };
      // Registered first, so the flight is gone before any caller resumes (a caller may start the next one at once).
      const end = (): void => {
        shared?.dispose();
        if (this.#flights.get(key) === created) this.#flights.delete(key);
      };
      promise.then(end, end);
      flight = created;
      this.#flights.set(key, flight);
    }
    if (signal === undefined) {
      flight.pinned = true;
      return flight.promise;
    }
    return this.#wait(key, flight, signal);
  }

  #wait(key: string, flight: Flight<T>, signal: Abortable): Promise<T> {
    flight.waiting += 1;
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        flight.waiting -= 1;
        if (flight.waiting === 0 && !flight.pinned) {
          // Nobody is left to answer: later callers start afresh.
          if (this.#flights.get(key) === flight) this.#flights.delete(key);
          flight.signal?.abort('caller');
        }
        reject(abortedError(this.endpoint(key)));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      flight.promise.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          resolve(value);
        },
        (error: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(error);
        },
      );
    });
  }
}
