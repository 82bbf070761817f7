import type { PlatformEndpoint } from '../errors/index.js';
import { abortedError, DeadlineSignal } from '../http/index.js';
import type { Abortable } from '../http/index.js';

interface Flight<T> {
  readonly promise: Promise<T>;
  /** Set when the first caller could go away: aborts the shared work once every caller has. */
  readonly controller: DeadlineSignal | undefined;
  /** Callers still waiting that may go away; a caller without a signal pins the work. */
  waiting: number;
  pinned: boolean;
}

/**
 * Concurrent callers with the same key share one piece of work. A caller
 * whose signal aborts stops waiting at once; the shared work is aborted only
 * when every caller has gone (the player who hung up costs nothing more; the
 * one still waiting keeps its answer).
 */
export class SingleFlight<T> {
  readonly #flights = new Map<string, Flight<T>>();

  constructor(private readonly endpoint: (key: string) => PlatformEndpoint) {}

  run(key: string, work: (signal: Abortable | undefined) => Promise<T>, signal?: Abortable): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(abortedError(this.endpoint(key)));
    let flight = this.#flights.get(key);
    if (flight === undefined) {
      // A timer-less signal of our own: an AbortController (and its EventTarget) per request costs more.
      const controller = signal === undefined ? undefined : new DeadlineSignal(Infinity);
      const promise = work(controller).finally(() => {
        if (this.#flights.get(key) === flight) this.#flights.delete(key);
      });
      flight = { promise, controller, waiting: 0, pinned: controller === undefined };
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
          flight.controller?.abort('caller');
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
