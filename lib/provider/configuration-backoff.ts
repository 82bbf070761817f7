import type { PlatformError } from '../errors/index.js';
import type { Clock } from '../types.js';
import { CONFIGURATION_BACKOFF_MS } from './token-lifetime.js';

/**
 * Remembers a configuration failure for a while, so it is logged once and E1
 * is not called again meanwhile. Global (40105: no token at all) or tied to
 * one API token (refused again after a reissue). Expires on read.
 */
export class ConfigurationBackoff {
  #entry: { error: PlatformError; until: number; key: string | undefined } | undefined;

  constructor(private readonly clock: Clock, readonly durationMs: number = CONFIGURATION_BACKOFF_MS) {}

  /** Starts (or restarts) the backoff; `key` ties it to one token. */
  start(error: PlatformError, key?: string): void {
    this.#entry = { error, until: this.clock.now() + this.durationMs, key };
  }

  /** The error while active: any global backoff, or the one tied to `key`. */
  current(key?: string): PlatformError | undefined {
    const entry = this.#entry;
    if (entry === undefined) return undefined;
    if (this.clock.now() >= entry.until) {
      this.#entry = undefined;
      return undefined;
    }
    return entry.key === undefined || entry.key === key ? entry.error : undefined;
  }

  /** End time of an active backoff. */
  until(): number | undefined {
    return this.current(this.#entry?.key) === undefined ? undefined : this.#entry?.until;
  }

  /** A successful E1 call ends a global backoff (a token-tied one runs its course). */
  clearGlobal(): void {
    if (this.#entry?.key === undefined) this.#entry = undefined;
  }
}
