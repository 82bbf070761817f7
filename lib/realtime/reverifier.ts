import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import type { Authenticator } from '../auth/authenticate.js';
import { integerOption } from '../config/validate.js';
import { PlatformError } from '../errors/index.js';
import type { SessionEndCause } from '../diagnostics/channels.js';
import type { TokenGroup } from './live-connection.js';

const GRACE_IS_NO_VERIFICATION = new PlatformError({ kind: 'platform_unavailable', message: 'The platform is out of service (answered from the outage grace).' });

/** The game's own revocation (a logout or ban seen in the shared store), not the platform's refusal. */
function isRevocation(error: PlatformError): boolean {
  return error.kind === 'invalid_token' && error.code === undefined && error.description === 'The token was revoked';
}

/** Default re-verification interval: 5 minutes. */
export const DEFAULT_REVERIFY_INTERVAL_MS = 300_000;
/** Default outage grace: 15 minutes without a successful re-verification. */
export const DEFAULT_REVERIFY_GRACE_MS = 900_000;

/** What a {@link Reverifier} reads and ends: the `SessionRegistry` that owns it. */
export interface ReverifiedSessions {
  /** The distinct live tokens. */
  groups(): TokenGroup[];
  /** The live group of a token digest, if any. */
  group(key: string): TokenGroup | undefined;
  /** The registry's clock, in ms. */
  now(): number;
  /** Ends every connection of a group; returns how many. */
  endGroup(group: TokenGroup, error: PlatformError, cause?: SessionEndCause): number;
}

/** Re-verification options of a `SessionRegistry`. */
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

/** Most ms a verification is started ahead of its token's deadline, so that its answer lands within the interval. */
const MAX_LEAD_MS = 15_000;
/**
 * The share of the interval a token rests after a verification began before
 * it is verified again: a token verified at its handshake (a reconnect storm)
 * costs no second platform call for half an interval.
 */
export const MIN_REST_FRACTION = 0.5;

interface Round {
  /** Verifications this round still has to start. */
  remaining: number;
  stats: ReverifyStats;
  pending: Promise<void>[];
}

/**
 * Verifies every distinct live token again, each at most one interval after
 * its last verification began, so a token the platform refused ends its
 * connections within one interval of the refusal, and never sooner than half
 * an interval after it (`restMs`): a token just verified is
 * not asked about again. Tokens wait in a queue ordered by deadline (a token
 * joins at the back, with the latest deadline; one verified goes back
 * there): the head is started when its deadline comes, or earlier when
 * evenly pacing the queue reaches it, but never before its rest is over.
 * Pacing spreads the queue over one cadence, or over what is left until the
 * last deadline when that is shorter, so thousands of sockets opened
 * together cost no call before half an interval and never make a burst
 * later: at most N / (cadence - rest) starts per ms for N tokens. A deadline is the interval minus
 * a lead (a tenth of it, at most 15 s) after the last start, which leaves the
 * answer time to arrive within the interval.
 *
 * Each verification goes through the authenticator, so through the shared
 * client (its single-flight, concurrency limit and cache). 40000 or 46217
 * (or a denial by `authorize`) ends the token's connections with that
 * action; an outage or a server-side fault only does so once no verification
 * of that token has succeeded for the grace period. Emits `'pass'` with its
 * {@link ReverifyStats} each time the tokens queued when a round began have
 * each been verified once and those verifications have settled.
 */
export class Reverifier extends EventEmitter<{ pass: [ReverifyStats] }> {
  readonly intervalMs: number;
  readonly graceMs: number;
  /** How long after a verification began the next one of that token is due, in ms. */
  readonly cadenceMs: number;
  /** How long after a verification began the next one of that token may start at the earliest, in ms. */
  readonly restMs: number;
  readonly #registry: ReverifiedSessions;
  readonly #authenticate: Authenticator<object, never>;
  /** Live token groups and when each is due (performance.now() ms), earliest first. */
  readonly #due = new Map<TokenGroup, number>();
  #timer: NodeJS.Timeout | undefined;
  #running = false;
  #lastStart = 0;
  /** The latest deadline in the queue (each token joins at the back, due later than any before it). */
  #tailDue = 0;
  #inFlight = 0;
  #round: Round | undefined;

  constructor(registry: ReverifiedSessions, options: ReverifyOptions & { authenticate: Authenticator<object, never> }) {
    super();
    this.#registry = registry;
    this.#authenticate = options.authenticate;
    this.intervalMs = integerOption(options.reverifyIntervalMs, 'SessionRegistry', 'reverifyIntervalMs', 'ms', 0, DEFAULT_REVERIFY_INTERVAL_MS);
    this.graceMs = integerOption(options.reverifyGraceMs, 'SessionRegistry', 'reverifyGraceMs', 'ms', 0, DEFAULT_REVERIFY_GRACE_MS);
    this.cadenceMs = this.intervalMs - Math.min(Math.floor(this.intervalMs / 10), MAX_LEAD_MS);
    this.restMs = Math.floor(this.intervalMs * MIN_REST_FRACTION);
  }

  /** Verifications started and not finished yet. */
  get inFlight(): number {
    return this.#inFlight;
  }

  /** Starts re-verifying (idempotent; no-op when the interval is 0). */
  start(): void {
    if (this.#running || this.intervalMs === 0) return;
    this.#running = true;
    this.#lastStart = performance.now();
    this.#arm();
  }

  /** Stops the timer; verifications in flight finish. */
  stop(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#running = false;
    this.#round = undefined;
  }

  /** @internal A new live token, verified just now: due one cadence from now, at the back of the queue. */
  track(group: TokenGroup): void {
    if (this.intervalMs === 0) return;
    this.#tailDue = performance.now() + this.cadenceMs;
    this.#due.set(group, this.#tailDue);
    // One more token to pace over the interval: the head may now be due sooner.
    if (this.#running) this.#arm();
  }

  /** @internal A token no connection holds any more. */
  forget(group: TokenGroup): void {
    this.#due.delete(group);
  }

  /**
   * Verifies every distinct live token now, all at once (the client's
   * concurrency limit still applies). For tests and operators; the interval
   * spreads its verifications instead.
   */
  async verifyAll(): Promise<ReverifyStats> {
    const stats: ReverifyStats = { verified: 0, ended: 0, failures: 0 };
    await Promise.all(this.#registry.groups().map(async (group) => this.#verify(group, stats)));
    return stats;
  }

  // (Re)sets the timer for the head of the queue: at its deadline, or sooner when pacing reaches it,
  // never before its rest is over (its deadline is one cadence after its last start). Pacing spreads
  // the queue over one cadence, or over what is left until the last deadline when that is shorter
  // (a storm of tokens verified together, none of them due again before its rest is over).
  #arm(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const head = this.#due.entries().next();
    if (head.done === true) return;
    const deadline = head.value[1];
    const rested = deadline - this.cadenceMs + this.restMs;
    const now = performance.now();
    const span = Math.min(this.cadenceMs, Math.max(0, this.#tailDue - Math.max(now, rested)));
    const paced = this.#lastStart + span / this.#due.size;
    const at = Math.max(rested, Math.min(deadline, paced));
    this.#timer = setTimeout(() => this.#next(), Math.max(0, at - now));
    this.#timer.unref();
  }

  #next(): void {
    this.#timer = undefined;
    const head = this.#due.keys().next();
    if (head.done === true) return;
    const group = head.value;
    const now = performance.now();
    this.#lastStart = now;
    // Back of the queue, due one cadence after this start whatever the answer:
    // a refusal ends it, a failure is tried again then (the grace decides).
    this.#due.delete(group);
    this.#tailDue = now + this.cadenceMs;
    this.#due.set(group, this.#tailDue);
    const round = this.#round ?? { remaining: this.#due.size, stats: { verified: 0, ended: 0, failures: 0 }, pending: [] };
    this.#round = round;
    round.pending.push(this.#verify(group, round.stats));
    round.remaining = Math.min(round.remaining - 1, this.#due.size);
    if (round.remaining <= 0) {
      this.#round = undefined;
      void Promise.all(round.pending).then(() => this.emit('pass', round.stats));
    }
    this.#arm();
  }

  async #verify(group: TokenGroup, stats: ReverifyStats): Promise<void> {
    // Closed meanwhile, or moved to another token by a refresh.
    if (group.connections.size === 0 || this.#registry.group(group.key) !== group) return;
    this.#inFlight += 1;
    try {
      const user = await this.#authenticate.token(group.token, { source: group.source });
      // Served from the outage grace: the platform was not asked, so nothing was verified.
      if (user.servedInGrace === true) throw GRACE_IS_NO_VERIFICATION;
      group.lastVerifiedAt = this.#registry.now();
      group.failure = undefined;
      stats.verified += 1;
    } catch (err) {
      stats.failures += 1;
      const error = err instanceof PlatformError ? err : new PlatformError({ kind: 'configuration', message: 'Re-verification failed on the server.' });
      if (!error.isServerFault) {
        stats.ended += this.#registry.endGroup(group, error, isRevocation(error) ? 'revoked' : 'refused');
      } else if (this.#registry.now() - group.lastVerifiedAt >= this.graceMs) {
        stats.ended += this.#registry.endGroup(group, new PlatformError({ kind: 'platform_unavailable', message: 'The platform has been unreachable for too long to keep the session.' }), 'expired');
      }
    } finally {
      this.#inFlight -= 1;
    }
  }
}
