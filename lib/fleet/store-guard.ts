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
  /** True when the client receives other instances' revocations (a bus is connected). */
  bus?: 'ready' | 'connecting' | 'down';
}

/** Marks a store answer that never came (error or timeout): the caller falls back to the platform. */
export const STORE_FAILED: unique symbol = Symbol('store failed');

/**
 * Runs store operations under a short timeout; a rejection, a throw or a
 * late answer becomes {@link STORE_FAILED}, never an error.
 */
export class StoreGuard {
  #failures = 0;
  #lastOk = true;
  #onRecovery: (() => void) | undefined;

  constructor(
    readonly store: VerificationStore,
    private readonly timeoutMs: number,
  ) {}

  /** Called once after a failure when an operation succeeds again (flushes unsynced revocations). */
  onRecovery(listener: () => void): void {
    this.#onRecovery = listener;
  }

  run<T>(op: (store: VerificationStore) => Promise<T>): Promise<T | typeof STORE_FAILED> {
    let pending: Promise<T>;
    try {
      pending = op(this.store);
    } catch {
      return Promise.resolve(this.#failed());
    }
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(this.#failed()), this.timeoutMs);
      pending.then(
        (value) => {
          clearTimeout(timer);
          if (!this.#lastOk) {
            this.#lastOk = true;
            this.#onRecovery?.();
          }
          resolve(value);
        },
        () => {
          clearTimeout(timer);
          resolve(this.#failed());
        },
      );
    });
  }

  #failed(): typeof STORE_FAILED {
    this.#failures += 1;
    this.#lastOk = false;
    return STORE_FAILED;
  }

  get failures(): number {
    return this.#failures;
  }

  get state(): 'ready' | 'connecting' | 'down' {
    const own = this.store.health?.();
    if (own !== undefined) return own.state;
    return this.#lastOk ? 'ready' : 'down';
  }
}
