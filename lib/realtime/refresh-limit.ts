import { rateLimited, type PlatformError } from '../errors/index.js';
import type { LiveConnection } from './live-connection.js';

/** Default shortest time between two in-band refreshes of one connection: 1 s. */
export const DEFAULT_MIN_REFRESH_INTERVAL_MS = 1000;

// `refreshNotBefore` counts whole ms from the connection's opening and -1
// means "in flight": small integers stay unboxed in the object (8 B), where
// a clock reading or Infinity would box a 16 B number per connection.
const IN_FLIGHT = -1;

/**
 * In-band refreshes of one connection: one at a time, and the next one no
 * sooner than `minIntervalMs` after the previous one started. The state is
 * one small integer on the connection: no timer and no closure per connection.
 */
export class RefreshLimit {
  readonly minIntervalMs: number;

  constructor(minIntervalMs: number) {
    this.minIntervalMs = minIntervalMs;
  }

  /** Starts a refresh at `now` (the registry's clock), or returns the 429 that refuses it. */
  begin(connection: LiveConnection, now: number): PlatformError | undefined {
    const notBefore = connection.refreshNotBefore;
    const elapsed = now - connection.openedAt;
    if (notBefore !== IN_FLIGHT && elapsed >= notBefore) {
      connection.refreshNotBefore = IN_FLIGHT;
      return undefined;
    }
    const waitMs = notBefore === IN_FLIGHT ? this.minIntervalMs : notBefore - elapsed;
    return rateLimited(`Too many auth:refresh messages: at most one at a time, one per ${this.minIntervalMs} ms.`, Math.max(1, Math.ceil(waitMs / 1000)));
  }

  /** True while the connection has a refresh in flight. */
  inFlight(connection: LiveConnection): boolean {
    return connection.refreshNotBefore === IN_FLIGHT;
  }

  /** Ends the refresh that began at `startedAt`. */
  end(connection: LiveConnection, startedAt: number): void {
    connection.refreshNotBefore = Math.ceil(startedAt - connection.openedAt + this.minIntervalMs);
  }
}
