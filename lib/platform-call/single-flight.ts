import type { PlatformEndpoint } from '../errors/index.js';
import { abortedError } from './aborted.js';
import { DeadlineSignal } from './deadline-signal.js';
import type { Abortable } from './deadline-signal.js';
import { boundedContext, type CallContext } from './platform-http.js';

const ONCE = { once: true } as const;

/** A caller waiting on a flight that may go away (it gave a signal). */
interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: Abortable;
  readonly onAbort: () => void;
}

interface Flight<T> {
  readonly promise: Promise<T>;
  /** The shared work's signal: its budget, and aborted once every caller that could go has gone. */
  readonly signal: DeadlineSignal | undefined;
  /** Callers still waiting that may go away; a caller without a signal pins the work. */
  readonly waiters: Set<Waiter<T>>;
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

  private readonly endpoint: (key: string) => PlatformEndpoint;
  private readonly budgetMs?: number;

  /**
   * @param endpoint names the operation of a key, for the error of a caller that went away.
   * @param budgetMs the time each shared piece of work may take (none: unbounded, no timer).
   */
  constructor(endpoint: (key: string) => PlatformEndpoint, budgetMs?: number) {
    this.endpoint = endpoint;
    this.budgetMs = budgetMs;
  }

  /** Keys with work in flight. */
  get size(): number {
    return this.#flights.size;
  }

  /**
   * Later callers of `key` start afresh: its work in flight, if any, goes on
   * for the callers already waiting on it.
   */
  detach(key: string): void {
    this.#flights.delete(key);
  }

  /**
   * `work` for `key`, shared with every concurrent caller of the same key:
   * started now when none runs. A caller with a `signal` may leave: its
   * promise rejects at once, and the work is aborted once nobody waits.
   */
  share(key: string, work: (context: CallContext) => Promise<T>, signal?: Abortable): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(abortedError(this.endpoint(key)));
    let flight = this.#flights.get(key);
    if (signal === undefined) {
      flight ??= this.#start(key, work, false);
      flight.pinned = true;
      return flight.promise;
    }
    // The caller's own promise, settled by the flight's end with the engine's resolvers: the one
    // closure per caller is its abort listener. It listens before any work starts: a signal that
    // cannot take a listener throws here, with no platform call made for it.
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    const waiter: Waiter<T> = { resolve, reject, signal, onAbort: () => this.#leave(key, flight!, waiter) };
    signal.addEventListener('abort', waiter.onAbort, ONCE);
    flight ??= this.#start(key, work, true);
    flight.waiters.add(waiter);
    return promise;
  }

  #start(key: string, work: (context: CallContext) => Promise<T>, leavable: boolean): Flight<T> {
    const budget = this.budgetMs;
    // One signal for the whole operation, a timer-less one when there is no budget and no caller
    // can leave (an AbortController and its EventTarget per request cost more).
    const shared = budget !== undefined ? new DeadlineSignal(budget) : leavable ? new DeadlineSignal(Infinity) : undefined;
    const context: CallContext = budget === undefined ? (shared === undefined ? {} : { signal: shared }) : boundedContext({ signal: shared }, budget);
    const promise = work(context);
    const flight: Flight<T> = { promise, signal: shared, waiters: new Set(), pinned: false };
    // One reaction settles every waiting caller: the flight is gone, and no caller listens for an
    // abort any more, before any caller resumes (a caller may start the next flight at once).
    promise.then((value) => this.#end(key, flight, false, value), (error: unknown) => this.#end(key, flight, true, error));
    this.#flights.set(key, flight);
    return flight;
  }

  /** The shared work settled: the flight ends and every caller still waiting gets its outcome. */
  #end(key: string, flight: Flight<T>, failed: boolean, outcome: unknown): void {
    flight.signal?.dispose();
    if (this.#flights.get(key) === flight) this.#flights.delete(key);
    for (const waiter of flight.waiters) {
      if (failed) waiter.reject(outcome);
      else waiter.resolve(outcome as T);
      try {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      } catch {
        // A caller's signal that cannot drop a listener must not leave the other callers waiting.
      }
    }
    flight.waiters.clear();
  }

  /** A caller's signal aborted: it stops waiting; the work stops once nobody is left to answer. */
  #leave(key: string, flight: Flight<T>, waiter: Waiter<T>): void {
    if (!flight.waiters.delete(waiter)) return;
    if (flight.waiters.size === 0 && !flight.pinned) {
      // Nobody is left to answer: later callers start afresh.
      if (this.#flights.get(key) === flight) this.#flights.delete(key);
      flight.signal?.abort('caller');
    }
    waiter.reject(abortedError(this.endpoint(key)));
  }
}
