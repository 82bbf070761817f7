import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Authenticator } from '../auth/authenticate.js';
import { PlatformError } from '../errors/index.js';
import type { SessionRegistry, TokenGroup } from './session-registry.js';

/** Default re-verification interval: 5 minutes. */
export const DEFAULT_REVERIFY_INTERVAL_MS = 300_000;
/** Default outage grace: 15 minutes without a successful re-verification. */
export const DEFAULT_REVERIFY_GRACE_MS = 900_000;

/** Re-verification options of a {@link SessionRegistry}. */
export interface ReverifyOptions {
  /** How often each distinct live token is verified again, in ms. Default 300000; `0` turns re-verification off. */
  reverifyIntervalMs?: number | undefined;
  /**
   * How long a token may go without a successful verification while the
   * platform is unreachable before its connections end (`retry_later`). Default 900000.
   */
  reverifyGraceMs?: number | undefined;
}

/** What one pass did. */
export interface ReverifyStats {
  verified: number;
  ended: number;
  failures: number;
}

function checkMs(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1) {
    throw new TypeError(`SessionRegistry: ${name} must be an integer number of ms from 0 to 2147483647`);
  }
  return value;
}

/**
 * Verifies every distinct live token once per interval. A pass takes a
 * snapshot of the tokens and starts their verifications one by one, evenly
 * spread over the interval, so thousands of sockets never make a burst; each
 * goes through the authenticator, so through the shared client (its
 * single-flight, concurrency limit and cache). 40000 or 46217 (or a denial by
 * `authorize`) ends the token's connections with that action; an outage or a
 * server-side fault only does so once no verification of that token has
 * succeeded for the grace period. Emits `'pass'` with its {@link ReverifyStats}
 * when a pass's verifications have all settled.
 */
export class Reverifier extends EventEmitter<{ pass: [ReverifyStats] }> {
  readonly intervalMs: number;
  readonly graceMs: number;
  readonly #registry: SessionRegistry;
  readonly #authenticate: Authenticator<object, never>;
  #timer: NodeJS.Timeout | undefined;
  #queue: (TokenGroup | undefined)[] = [];
  #gapMs = 0;
  #passStart = 0;
  #inFlight = 0;
  #pass: { stats: ReverifyStats; pending: Promise<void>[] } | undefined;

  constructor(registry: SessionRegistry, options: ReverifyOptions & { authenticate: Authenticator<object, never> }) {
    super();
    this.#registry = registry;
    this.#authenticate = options.authenticate;
    this.intervalMs = checkMs(options.reverifyIntervalMs, 'reverifyIntervalMs', DEFAULT_REVERIFY_INTERVAL_MS);
    this.graceMs = checkMs(options.reverifyGraceMs, 'reverifyGraceMs', DEFAULT_REVERIFY_GRACE_MS);
  }

  /** Verifications started and not finished yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts the interval timer (idempotent; no-op when the interval is 0). */
  start(): void {
    if (this.#timer !== undefined || this.intervalMs === 0) return;
    this.#schedule(this.intervalMs, () => this.#beginPass());
  }

  /** Stops the timer; verifications in flight finish. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue = [];
    this.#pass = undefined;
  }

  /**
   * Verifies every distinct live token now, all at once (the client's
   * concurrency limit still applies). For tests and operators; the interval
   * spreads its pass instead.
   */
  async verifyAll(): Promise<ReverifyStats> {
    const stats: ReverifyStats = { verified: 0, ended: 0, failures: 0 };
    await Promise.all(this.#registry.groups().map(async (group) => this.#verify(group, stats)));
    return stats;
  }

  #schedule(ms: number, fn: () => void): void {
    this.#timer = setTimeout(fn, ms);
    this.#timer.unref();
  }

  #beginPass(): void {
    this.#queue = this.#registry.groups();
    this.#passStart = performance.now();
    this.#gapMs = this.#queue.length === 0 ? this.intervalMs : this.intervalMs / this.#queue.length;
    this.#pass = { stats: { verified: 0, ended: 0, failures: 0 }, pending: [] };
    this.#next(0);
  }

  // Starts the i-th verification of the pass, then waits for the (i+1)-th slot.
  #next(index: number): void {
    this.#timer = undefined;
    const group = this.#queue[index];
    if (group === undefined) {
      const wait = Math.max(0, this.#passStart + this.intervalMs - performance.now());
      this.#queue = [];
      const pass = this.#pass;
      this.#pass = undefined;
      if (pass !== undefined) void Promise.all(pass.pending).then(() => this.emit('pass', pass.stats));
      this.#schedule(wait, () => this.#beginPass());
      return;
    }
    this.#queue[index] = undefined; // keep no token longer than needed
    const pass = this.#pass ?? { stats: { verified: 0, ended: 0, failures: 0 }, pending: [] };
    pass.pending.push(this.#verify(group, pass.stats));
    const due = this.#passStart + (index + 1) * this.#gapMs;
    this.#schedule(Math.max(0, due - performance.now()), () => this.#next(index + 1));
  }

  async #verify(group: TokenGroup, stats: ReverifyStats): Promise<void> {
    // Closed since the snapshot, or moved to another token by a refresh.
    if (group.connections.size === 0 || this.#registry.group(group.key) !== group) return;
    this.#inFlight += 1;
    try {
      await this.#authenticate.token(group.token, { source: group.source });
      group.lastVerifiedAt = this.#registry.now();
      group.failure = undefined;
      stats.verified += 1;
    } catch (err) {
      stats.failures += 1;
      const error = err instanceof PlatformError ? err : new PlatformError({ kind: 'configuration', message: 'Re-verification failed on the server.' });
      if (!error.isServerFault) {
        stats.ended += this.#registry.endGroup(group, error);
      } else if (this.#registry.now() - group.lastVerifiedAt >= this.graceMs) {
        stats.ended += this.#registry.endGroup(group, new PlatformError({ kind: 'platform_unavailable', message: 'The platform has been unreachable for too long to keep the session.' }));
      }
    } finally {
      this.#inFlight -= 1;
    }
  }
}
