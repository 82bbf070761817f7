import type { RevocationBus } from './session-end.js';
import type { VerificationStore } from './verification-store.js';

/** The client's options for several instances: where verifications and revocations are shared. */
export interface SharingOptions {
  /**
   * Store of the verification cache (when `cache` is on) and, when it is
   * shared (`store.shared === true`, e.g. Redis), of revocations. Default: an
   * in-memory LRU of `cache.maxEntries`.
   */
  store?: VerificationStore;
  /** Carries revocations and session ends to every instance (e.g. Redis pub/sub). */
  revocations?: RevocationBus;
  /** Longest wait for one store operation before asking the platform instead; default 100 (1 to 5000). */
  storeTimeoutMs?: number;
}

export interface ResolvedSharingOptions {
  store: VerificationStore | undefined;
  revocations: RevocationBus | undefined;
  storeTimeoutMs: number;
}

/**
 * The former name of {@link SharingOptions}.
 * @deprecated Use `SharingOptions`; this name goes in the next release.
 */
export type FleetOptions = SharingOptions;

const isFunction = (value: unknown): boolean => typeof value === 'function';

/** Checks the sharing options once, with messages naming the option. */
export function resolveSharingOptions(options: SharingOptions, defaultTimeoutMs: number): ResolvedSharingOptions {
  const { store, revocations, storeTimeoutMs } = options;
  if (store !== undefined) {
    const s = store as unknown as Record<string, unknown>;
    if (store === null || typeof store !== 'object' || !isFunction(s.get) || !isFunction(s.set) || !isFunction(s.delete)) {
      throw new TypeError('passport-game-platform: "store" must have get(key), set(key, value, ttlMs) and delete(key) methods');
    }
  }
  if (revocations !== undefined) {
    const b = revocations as unknown as Record<string, unknown>;
    if (revocations === null || typeof revocations !== 'object' || !isFunction(b.publish) || !isFunction(b.subscribe)) {
      throw new TypeError('passport-game-platform: "revocations" must have publish(event) and subscribe(listener) methods');
    }
  }
  const timeout = storeTimeoutMs ?? defaultTimeoutMs;
  if (!Number.isInteger(timeout) || timeout < 1 || timeout > 5000) {
    throw new TypeError('passport-game-platform: "storeTimeoutMs" must be an integer from 1 to 5000');
  }
  return { store, revocations, storeTimeoutMs: timeout };
}
