import type { ResolvedPlatformConfig } from '../config/index.js';
import {
  DEFAULT_STORE_TIMEOUT_MS, MemoryVerificationStore, resolveSharingOptions, Revocations, StoreGuard, tenantScope, VerificationCache,
} from '../store/index.js';
import type { SharingOptions, SessionEndEvent, VerificationStoreHealth } from '../store/index.js';
import type { HealthExtras } from './client-health.js';

/** The client's cache, revocations and their health, built from its options. */
export interface ClientStores {
  /** The tenant scope (platform base URL and game id) of everything this client keeps or shares. */
  scope: string;
  cache: VerificationCache;
  revocations: Revocations;
  /** The shared store (guarded), when one is configured: what every instance reads. */
  shared: StoreGuard | undefined;
  health(): VerificationStoreHealth;
  /** `{ store }` for the client's health() when a shared store is configured (its readiness). */
  sharedState(): HealthExtras;
}

export function clientStores(
  config: ResolvedPlatformConfig,
  options: SharingOptions,
  onEnd: (event: SessionEndEvent, origin: 'local' | 'remote') => void,
): ClientStores {
  const { store, revocations: bus, storeTimeoutMs } = resolveSharingOptions(options, DEFAULT_STORE_TIMEOUT_MS);
  const cacheStore = config.cache === undefined
    ? undefined
    : store ?? new MemoryVerificationStore({ maxEntries: config.cache.maxEntries, clock: config.monotonic });
  const guard = store === undefined && cacheStore === undefined ? undefined : new StoreGuard((store ?? cacheStore)!, storeTimeoutMs, config.logger);
  const shared = guard !== undefined && guard.store.shared === true ? guard : undefined;
  const scope = tenantScope(config.baseUrl, config.gameId);
  const cache = new VerificationCache(cacheStore === undefined ? undefined : guard, config.cache?.ttlMs ?? 0, () => config.clock.now(), scope);
  const revocations = new Revocations(shared, bus, config.monotonic, config.logger, onEnd, scope);
  return {
    scope,
    cache,
    revocations,
    shared,
    sharedState(): HealthExtras {
      if (shared === undefined) return {};
      // Reconnecting or never connected: either way the shared store does not answer now.
      return { store: shared.state === 'ready' ? 'ok' : 'down' };
    },
    health(): VerificationStoreHealth {
      const busState = bus?.health?.().state;
      const base = { failures: guard?.failures ?? 0, unsyncedRevocations: revocations.unsynced, unsentMemberEnds: revocations.unsentMemberEnds, ...(bus === undefined ? {} : { bus: busState ?? 'ready' }) };
      if (guard === undefined) return { kind: 'none', ready: true, state: 'ready', ...base };
      const state = guard.state;
      return { kind: shared === undefined ? 'memory' : 'shared', ready: state === 'ready', state, ...base };
    },
  };
}
