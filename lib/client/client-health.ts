import { errorForTransportFault, isPlatformError } from '../errors/index.js';
import type { CircuitState, HttpLoad } from '../platform-call/index.js';
import type { ApiTokenProvider } from '../platform-call/index.js';
import type { Clock } from '../types.js';

/** State of a shared store (Redis) as its owner reports it. */
export type StoreHealth = 'ok' | 'down' | 'connecting';

/** A shared dependency the instance serves without, while it is down (Redis: verification goes to the platform). */
export type DegradedPart = 'store';

/** What other parts of the application add to {@link ClientHealth}. */
export interface HealthExtras {
  /** The shared store's state (e.g. Redis); absent when none is configured. */
  store?: StoreHealth;
  /** Live real-time connections of this instance. */
  liveConnections?: number;
}

/**
 * A snapshot of a client for readiness probes: never a secret, never a token.
 * `apiToken.expiresInS` is whole seconds until the held token expires.
 */
export interface ClientHealth extends HealthExtras {
  /**
   * Present while a shared dependency is down that the instance can serve
   * without (`['store']`: Redis is down, verifications go to the platform and
   * revocations hold on the instance that made them). Degraded is not down:
   * the instance still serves players.
   */
  degraded?: DegradedPart[];
  apiToken: { held: boolean; expiresInS?: number; fingerprint?: string; refused: boolean };
  circuit: CircuitState;
  inFlight: number;
  queued: number;
  closed: boolean;
}

export function clientHealth(provider: ApiTokenProvider, load: HttpLoad, clock: Clock, closed: boolean, extras: HealthExtras): ClientHealth {
  const state = provider.state;
  const now = clock.now();
  const held = state.expiresAt !== undefined && state.expiresAt > now;
  return {
    apiToken: {
      held,
      ...(held ? { expiresInS: Math.floor((state.expiresAt! - now) / 1000), fingerprint: state.fingerprint } : {}),
      refused: state.backoffUntil !== undefined,
    },
    circuit: load.circuit,
    inFlight: load.active,
    queued: load.queued,
    closed,
    ...(extras.store === undefined ? {} : { store: extras.store }),
    ...(extras.store === undefined || extras.store === 'ok' ? {} : { degraded: ['store'] as DegradedPart[] }),
    ...(extras.liveConnections === undefined ? {} : { liveConnections: extras.liveConnections }),
  };
}

const READY_RETRY_MIN_MS = 250;
const READY_RETRY_MAX_MS = 5000;

/**
 * Gets an API token, asking again (doubling waits up to 5 s) while the
 * platform is unreachable; a configuration refusal or a closed client ends it.
 */
export async function waitForApiToken(provider: ApiTokenProvider, closed: () => boolean): Promise<void> {
  let wait = READY_RETRY_MIN_MS;
  for (;;) {
    if (closed()) throw errorForTransportFault('closed', 'E1');
    try {
      await provider.getToken();
      return;
    } catch (error) {
      if (isPlatformError(error) && error.kind === 'configuration') throw error;
      if (closed()) throw errorForTransportFault('closed', 'E1');
    }
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      timer.unref();
    });
    wait = Math.min(wait * 2, READY_RETRY_MAX_MS);
  }
}
