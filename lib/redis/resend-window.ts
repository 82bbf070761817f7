import { revokedKey } from '../store/index.js';
import { processMonotonic } from '../time/monotonic.js';

/**
 * What this instance wrote in this window is written again (events under
 * their own id, receivers drop the copies; revocation markers as they were)
 * when its connection comes back or Redis answers again after failing: a
 * primary that lost its role during a failover may have accepted those writes
 * and then dropped them.
 */
export const RESEND_WINDOW_MS = 30_000;
/** A burst of recoveries (a failover flaps) is answered by one resend, this long after the first. */
export const RESEND_DELAY_MS = 500;

/** Runs `fn` once, {@link RESEND_DELAY_MS} after the first of any number of `schedule()` calls; `cancel()` for good. */
export function debouncedResend(fn: () => void): { schedule(): void; cancel(): void } {
  let timer: NodeJS.Timeout | undefined;
  let cancelled = false;
  return {
    schedule() {
      if (timer !== undefined || cancelled) return;
      timer = setTimeout(() => {
        timer = undefined;
        fn();
      }, RESEND_DELAY_MS);
      timer.unref();
    },
    cancel() {
      cancelled = true;
      clearTimeout(timer);
    },
  };
}

/** Most session ends kept for resending (the oldest go first). */
export const RESEND_MAX_EVENTS = 1000;

/** Messages this instance sent in the last {@link RESEND_WINDOW_MS}, oldest first. */
export class RecentSends<T = string> {
  readonly #sent: Array<{ item: T; at: number }> = [];

  note(item: T): void {
    const now = processMonotonic.now();
    this.#forget(now);
    if (this.#sent.length >= RESEND_MAX_EVENTS) this.#sent.shift();
    this.#sent.push({ item, at: now });
  }

  get size(): number {
    return this.#sent.length;
  }

  /** The messages still within the window. */
  due(): T[] {
    this.#forget(processMonotonic.now());
    return this.#sent.map((sent) => sent.item);
  }

  #forget(now: number): void {
    while (this.#sent.length > 0 && now - this.#sent[0]!.at > RESEND_WINDOW_MS) this.#sent.shift();
  }
}

/** A revocation marker's key (a token digest under `revoked:`, after whatever the caller put before it). */
const MARKER = new RegExp(`(^|:)${revokedKey('')}[0-9a-f]{64}$`);

/** Revocation markers written in the last {@link RESEND_WINDOW_MS}, with what is left of their lifetime. */
export class RecentMarkers {
  readonly #writes = new Map<string, { value: string; at: number; expiresAt: number }>();

  private readonly max: number;

  constructor(max = 10_000) {
    this.max = max;
  }

  /** Keeps a marker write (other keys are not kept: a cache entry written again could outlive a forget). */
  note(key: string, value: string, ttlMs: number): void {
    if (!MARKER.test(key)) return;
    const at = processMonotonic.now();
    this.#writes.delete(key);
    if (this.#writes.size >= this.max) this.#writes.delete(this.#writes.keys().next().value!);
    this.#writes.set(key, { value, at, expiresAt: at + ttlMs });
  }

  /** The markers to write again, each with its remaining lifetime; older ones are forgotten. */
  due(): Array<{ key: string; value: string; ttlMs: number }> {
    const now = processMonotonic.now();
    const out: Array<{ key: string; value: string; ttlMs: number }> = [];
    for (const [key, write] of this.#writes) {
      if (now - write.at > RESEND_WINDOW_MS || write.expiresAt <= now) this.#writes.delete(key);
      else out.push({ key, value: write.value, ttlMs: Math.max(1, Math.ceil(write.expiresAt - now)) });
    }
    return out;
  }
}
