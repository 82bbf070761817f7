import type { PlatformEndpoint } from '../errors/index.js';
import { abortedError } from './aborted.js';
import { DeadlineSignal } from './deadline-signal.js';
import type { Abortable } from './deadline-signal.js';
import { boundedContext, type CallContext } from './platform-http.js';

const ONCE = { once: true } as const;
/** The fewest slots of the flights' table (a power of two); it keeps at most half of them used. */
const MIN_SLOTS = 16;

/** A caller waiting on a flight that may go away (it gave a signal). */
interface Waiter<T> {
  readonly resolve: (value: T) => void;
  readonly reject: (error: unknown) => void;
  readonly signal: Abortable;
  readonly onAbort: () => void;
  /** Its index in its flight's `others`, for a removal in constant time (-1: none). */
  slot: number;
}

interface Flight<T> {
  readonly promise: Promise<T>;
  /** Its key's hash (each call of `share` computes it once), for its removal and a resize. */
  readonly hash: number;
  /** The shared work's signal: its budget, and aborted once every caller that could go has gone. */
  readonly signal: DeadlineSignal | undefined;
  /**
   * Callers still waiting that may go away (a caller without a signal pins the work): the first
   * in a field of its own, any later ones in a list made when the second joins. Most flights have
   * one caller, and a `Set` made for each cost more than this.
   */
  first: Waiter<T> | undefined;
  others: Waiter<T>[] | undefined;
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
  /**
   * The flights by key, on two plain arrays (open addressing, linear probing), not a `Map`. A
   * flight lives for one request, and a long-lived `Map` written and emptied that often rebuilds
   * its table every few dozen entries, each old table keeping a link to the next. Once one of
   * those tables is in the old generation, every young collection keeps the chain alive, and
   * with it the requests its entries name: the process then promotes about a request's worth of
   * objects per request, which it could have freed young. Here a removed entry keeps nothing,
   * and the arrays a resize leaves are emptied. A key slot holds the key, `null` once removed
   * from a probe chain, or `undefined` when free.
   */
  #keys: (string | null | undefined)[] = new Array<undefined>(MIN_SLOTS).fill(undefined);
  #flights: (Flight<T> | undefined)[] = new Array<undefined>(MIN_SLOTS).fill(undefined);
  /** Slots holding a key or a removal mark. */
  #used = 0;
  #count = 0;
  /** Seeds the keys' hash, so that nobody outside the process can choose keys that collide. */
  readonly #seed = (Math.random() * 0x1_0000_0000) >>> 0;

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
    return this.#count;
  }

  /**
   * Later callers of `key` start afresh: its work in flight, if any, goes on
   * for the callers already waiting on it.
   */
  detach(key: string): void {
    // The hash of `share`, written out in both: no function of its own on every verification.
    let hash = this.#seed ^ key.length;
    for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x0100_0193);
    this.#remove(key, hash, undefined);
  }

  /**
   * `work` for `key`, shared with every concurrent caller of the same key:
   * started now when none runs. A caller with a `signal` may leave: its
   * promise rejects at once, and the work is aborted once nobody waits.
   */
  share(key: string, work: (context: CallContext) => Promise<T>, signal?: Abortable): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(abortedError(this.endpoint(key)));
    // FNV-1a over the whole key, seeded; kept on the flight so that its end need not hash again.
    let hash = this.#seed ^ key.length;
    for (let i = 0; i < key.length; i += 1) hash = Math.imul(hash ^ key.charCodeAt(i), 0x0100_0193);
    const slot = this.#slotOf(key, hash);
    let flight = this.#keys[slot] === key ? this.#flights[slot] : undefined;
    if (signal === undefined) {
      flight ??= this.#start(key, hash, work, false);
      flight.pinned = true;
      return flight.promise;
    }
    // The caller's own promise, settled by the flight's end with the engine's resolvers: the one
    // closure per caller is its abort listener. It listens before any work starts: a signal that
    // cannot take a listener throws here, with no platform call made for it.
    const { promise, resolve, reject } = Promise.withResolvers<T>();
    const waiter: Waiter<T> = { resolve, reject, signal, onAbort: () => this.#leave(key, flight!, waiter), slot: -1 };
    signal.addEventListener('abort', waiter.onAbort, ONCE);
    flight ??= this.#start(key, hash, work, true);
    // The first field is free for a new flight, and again once its caller has left.
    if (flight.first === undefined) {
      flight.first = waiter;
    } else {
      const others = (flight.others ??= []);
      waiter.slot = others.length;
      others.push(waiter);
    }
    return promise;
  }

  #start(key: string, hash: number, work: (context: CallContext) => Promise<T>, leavable: boolean): Flight<T> {
    const budget = this.budgetMs;
    // One signal for the whole operation, a timer-less one when there is no budget and no caller
    // can leave (an AbortController and its EventTarget per request cost more).
    const shared = budget !== undefined ? new DeadlineSignal(budget) : leavable ? new DeadlineSignal(Infinity) : undefined;
    const context: CallContext = budget === undefined ? (shared === undefined ? {} : { signal: shared }) : boundedContext({ signal: shared }, budget);
    const promise = work(context);
    const flight: Flight<T> = { promise, hash, signal: shared, first: undefined, others: undefined, pinned: false };
    // One reaction settles every waiting caller: the flight is gone, and no caller listens for an
    // abort any more, before any caller resumes (a caller may start the next flight at once).
    promise.then((value) => this.#end(key, flight, false, value), (error: unknown) => this.#end(key, flight, true, error));
    // The slot is found after `work` has run: it may have started or ended other flights.
    if ((this.#used + 1) * 2 > this.#keys.length) this.#resize();
    const slot = this.#slotOf(key, hash);
    if (this.#keys[slot] === undefined) this.#used += 1;
    this.#keys[slot] = key;
    this.#flights[slot] = flight;
    this.#count += 1;
    return flight;
  }

  /**
   * The slot holding `key`, whose hash is `hash`; else the slot a new entry for it takes (the
   * first removal mark on its probe chain, or the free slot that ends it).
   */
  #slotOf(key: string, hash: number): number {
    const keys = this.#keys;
    const mask = keys.length - 1;
    let slot = hash & mask;
    let marked = -1;
    for (;;) {
      const held = keys[slot];
      if (held === key) return slot;
      if (held === undefined) return marked >= 0 ? marked : slot;
      if (held === null && marked < 0) marked = slot;
      slot = (slot + 1) & mask;
    }
  }

  /** Removes `key`'s entry, `hash` its hash (only while it is `flight`, when one is given). */
  #remove(key: string, hash: number, flight: Flight<T> | undefined): void {
    const slot = this.#slotOf(key, hash);
    if (this.#keys[slot] !== key || (flight !== undefined && this.#flights[slot] !== flight)) return;
    this.#flights[slot] = undefined;
    this.#count -= 1;
    const keys = this.#keys;
    const mask = keys.length - 1;
    if (keys[(slot + 1) & mask] !== undefined) {
      keys[slot] = null;
      return;
    }
    // The slot ended its probe chain: it, and the removal marks just before it, are free again.
    keys[slot] = undefined;
    this.#used -= 1;
    for (let i = (slot - 1) & mask; keys[i] === null; i = (i - 1) & mask) {
      keys[i] = undefined;
      this.#used -= 1;
    }
  }

  /** Moves the entries into new arrays four times their number (at least MIN_SLOTS), and empties the old ones. */
  #resize(): void {
    const keys = this.#keys;
    const flights = this.#flights;
    let slots = MIN_SLOTS;
    while (slots < (this.#count + 1) * 4) slots *= 2;
    this.#keys = new Array<undefined>(slots).fill(undefined);
    this.#flights = new Array<undefined>(slots).fill(undefined);
    this.#used = this.#count;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i];
      if (typeof key !== 'string') continue;
      const flight = flights[i]!;
      const slot = this.#slotOf(key, flight.hash);
      this.#keys[slot] = key;
      this.#flights[slot] = flight;
    }
    keys.fill(undefined);
    flights.fill(undefined);
  }

  /** The shared work settled: the flight ends and every caller still waiting gets its outcome. */
  #end(key: string, flight: Flight<T>, failed: boolean, outcome: unknown): void {
    flight.signal?.dispose();
    this.#remove(key, flight.hash, flight);
    // The first caller, then the others (the list is walked by index: one written out loop, no
    // function per waiter).
    const others = flight.others;
    let i = 0;
    let waiter = flight.first ?? others?.[i++];
    flight.first = undefined;
    flight.others = undefined;
    for (; waiter !== undefined; waiter = others?.[i++]) {
      if (failed) waiter.reject(outcome);
      else waiter.resolve(outcome as T);
      try {
        waiter.signal.removeEventListener('abort', waiter.onAbort);
      } catch {
        // A caller's signal that cannot drop a listener must not leave the other callers waiting.
      }
    }
  }

  /** A caller's signal aborted: it stops waiting; the work stops once nobody is left to answer. */
  #leave(key: string, flight: Flight<T>, waiter: Waiter<T>): void {
    const others = flight.others;
    if (flight.first === waiter) {
      flight.first = undefined;
    } else {
      // The last one takes its place: thousands of callers of one token leaving cost one step each.
      if (others === undefined || others[waiter.slot] !== waiter) return;
      const last = others.pop()!;
      if (last !== waiter) {
        others[waiter.slot] = last;
        last.slot = waiter.slot;
      }
    }
    if (flight.first === undefined && (others === undefined || others.length === 0) && !flight.pinned) {
      // Nobody is left to answer: later callers start afresh.
      this.#remove(key, flight.hash, flight);
      flight.signal?.abort('caller');
    }
    waiter.reject(abortedError(this.endpoint(key)));
  }
}
