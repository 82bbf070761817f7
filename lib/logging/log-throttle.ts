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

  constructor(private readonly clock: Now, private readonly windowMs: number, private readonly maxKeys = 256) {}

  allow(key: string): boolean {
    const now = this.clock.now();
    const last = this.#last.get(key);
    if (last !== undefined && now - last < this.windowMs) return false;
    if (this.#last.size >= this.maxKeys) this.#last.clear();
    this.#last.set(key, now);
    return true;
  }
}
