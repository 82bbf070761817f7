/** Anything with a `now()` in ms; give it a monotonic clock. */
interface Now {
  now(): number;
}

/**
 * Lets one log line per key through per window, so a misconfiguration or an
 * outage is one clear line, not a storm. The API-token provider holds the one
 * instance that throttles the client's fault lines.
 */
export class LogThrottle {
  readonly #last = new Map<string, number>();

  private readonly clock: Now;
  private readonly windowMs: number;
  private readonly maxKeys: number;

  constructor(clock: Now, windowMs: number, maxKeys = 256) {
    this.clock = clock;
    this.windowMs = windowMs;
    this.maxKeys = maxKeys;
  }

  allow(key: string): boolean {
    const now = this.clock.now();
    const last = this.#last.get(key);
    if (last !== undefined && now - last < this.windowMs) return false;
    if (this.#last.size >= this.maxKeys) this.#last.clear();
    this.#last.set(key, now);
    return true;
  }
}
