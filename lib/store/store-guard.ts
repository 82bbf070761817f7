import type { Logger } from '../types.js';
import type { VerificationStore } from './verification-store.js';

/** How long one store operation may take before the client gives up on it and asks the platform. */
export const DEFAULT_STORE_TIMEOUT_MS = 100;

/** What the client knows of its store, for readiness checks (no keys, no values). */
export interface VerificationStoreHealth {
  /** `memory`: this process only; `shared`: every instance (e.g. Redis); `none`: no cache, no shared revocations. */
  kind: 'none' | 'memory' | 'shared';
  /** True when the store answers (a local store always does). */
  ready: boolean;
  /** The store's connection as it reports it, or as its latest operations show. */
  state: 'ready' | 'connecting' | 'down';
  /** Store operations that failed or timed out since the client started (each fell back to the platform). */
  failures: number;
  /** Revocations made while the shared store was unreachable, held here and sent once it answers again. */
  unsyncedRevocations: number;
  /** Member ends made while the bus could not be reached, held here and sent once it answers again. */
  unsentMemberEnds: number;
  /** True when the client receives other instances' revocations (a bus is connected). */
  bus?: 'ready' | 'connecting' | 'down';
}

/** Operations failed in a row after which the store counts as down whatever its connection says (one slow answer is not an outage). */
export const FAILURES_MEANING_DOWN = 3;

/** Marks a store answer that never came (error or timeout): the caller falls back to the platform. */
export const STORE_FAILED: unique symbol = Symbol('store failed');

/**
 * Runs store operations under a short timeout; a rejection, a throw or a
 * late answer becomes {@link STORE_FAILED}, never an error.
 */
export class StoreGuard {
  #failures = 0;
  #failedInARow = 0;
  /** Operations in a row the store answered with an error (a late answer is not counted: a stall is not an outage). */
  #refusedInARow = 0;
  #onRecovery: (() => void) | undefined;

  readonly store: VerificationStore;
  private readonly timeoutMs: number;
  private readonly logger?: Pick<Logger, 'warn'>;

  constructor(
    store: VerificationStore,
    timeoutMs: number,
    logger?: Pick<Logger, 'warn'>,
  ) {
    this.store = store;
    this.timeoutMs = timeoutMs;
    this.logger = logger;
    store.onReady?.(() => {
      // A new connection: the failures of the old one say nothing about it.
      this.#failedInARow = 0;
      this.#refusedInARow = 0;
      this.#onRecovery?.();
    });
  }

  /**
   * Called when an operation succeeds after a failure, and each time the
   * store reports its connection ready again (flushes unsynced revocations).
   */
  onRecovery(listener: () => void): void {
    this.#onRecovery = listener;
  }

  run<T>(op: (store: VerificationStore) => Promise<T>): Promise<T | typeof STORE_FAILED> {
    let pending: Promise<T>;
    try {
      pending = op(this.store);
    } catch {
      this.#refusedInARow += 1;
      return Promise.resolve(this.#failed(new Error('the store threw')));
    }
    return new Promise((resolve) => {
      let late = false;
      const timer = setTimeout(() => {
        late = true;
        resolve(this.#failed());
      }, this.timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          const recovered = this.#failedInARow > 0;
          this.#failedInARow = 0;
          this.#refusedInARow = 0;
          if (recovered) this.#onRecovery?.();
          resolve(value);
        },
        (error: unknown) => {
          clearTimeout(timer);
          // Already counted as late: one operation is one failure.
          if (late) return;
          this.#refusedInARow += 1;
          resolve(this.#failed(error));
        },
      );
    });
  }

  #failed(error?: unknown): typeof STORE_FAILED {
    this.#failures += 1;
    this.#failedInARow += 1;
    if (this.#failedInARow === FAILURES_MEANING_DOWN) {
      this.logger?.warn({ error: shortReason(error) }, 'passport-game-platform: the verification store keeps failing; verifications go to the platform and revocations hold on this instance until it answers');
    }
    return STORE_FAILED;
  }

  /**
   * True when the store is known to be out of service, not merely slow: its
   * connection reports itself down (closed, reconnecting, or refusing us), or
   * its last operations all answered with an error. Late answers alone never
   * make it down: one stall on a healthy store must not look like an outage.
   */
  get knownDown(): boolean {
    const own = this.store.health?.();
    if (own !== undefined && own.state !== 'ready') return true;
    return this.#refusedInARow >= FAILURES_MEANING_DOWN;
  }

  get failures(): number {
    return this.#failures;
  }

  /**
   * The store's own report, unless its operations keep failing: a connection
   * that is up but refuses every command (no password given to a Redis that
   * requires one, a read-only replica, out of memory) is down for us.
   */
  get state(): 'ready' | 'connecting' | 'down' {
    if (this.#failedInARow >= FAILURES_MEANING_DOWN) return 'down';
    const own = this.store.health?.();
    if (own !== undefined) return own.state;
    return this.#failedInARow === 0 ? 'ready' : 'down';
  }
}

/** The first line of a store error (e.g. Redis's `NOAUTH Authentication required.`), or `timeout`. */
function shortReason(error: unknown): string {
  if (error === undefined) return 'timeout';
  return error instanceof Error ? error.message.split('\n', 1)[0]!.slice(0, 200) : 'unknown error';
}
