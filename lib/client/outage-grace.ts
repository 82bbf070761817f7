import { outageGraceChannel } from '../diagnostics/channels.js';
import type { OutageGraceMessage } from '../diagnostics/channels.js';
import { isPlatformError, isPlatformOutage } from '../errors/index.js';
import { LazyLru, STORE_FAILED } from '../store/index.js';
import type { StoreGuard } from '../store/index.js';
import type { MonotonicClock } from '../time/monotonic.js';
import type { Clock, GameUser, Logger } from '../types.js';

/** Longest outage grace: one hour. */
export const MAX_OUTAGE_GRACE_MS = 3_600_000;
/** Most last-verified records held in this process (the least recently verified go first). */
export const OUTAGE_GRACE_MAX_ENTRIES = 100_000;

/** The outage grace option of a {@link PlatformClient}. */
export interface OutageGraceOptions {
  /**
   * Opt-in (default `0`, off; at most 3600000): while the platform is out of
   * service (E1 or E2 unreachable, timing out, answering 5xx or 50000, or the
   * circuit open), a token this client, or with a shared store any instance,
   * verified successfully within the last `outageGraceMs` is accepted with
   * the identifiers the platform gave then, and `servedInGrace: true`. Never
   * a token never verified, one the platform refused since, one revoked, nor
   * one verified longer ago. An answer served in grace does not renew it.
   * Off by default: while the platform is down it cannot tell us about a
   * logout or a ban made on its side.
   */
  outageGraceMs?: number | undefined;
}

type Kind = 'E2' | 'web';

/** What is kept of a successful verification: identifiers and when (the client's clock, ms). Never the token. */
interface GraceRecord {
  memberNo: string;
  guid: string | null;
  verifiedAt: number;
}

interface GraceWindow {
  openedAt: number;
  served: number;
  refused: number;
}

const DIGITS = /^[0-9]{1,40}$/;

function recordOf(value: unknown): GraceRecord | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { memberNo, guid, verifiedAt } = value as Partial<GraceRecord>;
  if (typeof memberNo !== 'string' || !DIGITS.test(memberNo)) return undefined;
  if (guid !== null && (typeof guid !== 'string' || !DIGITS.test(guid))) return undefined;
  if (typeof verifiedAt !== 'number' || !Number.isFinite(verifiedAt)) return undefined;
  return { memberNo, guid, verifiedAt };
}

/**
 * The opt-in outage grace of a client: when each token was last verified
 * successfully by the platform, kept in an LRU here or, with a shared store,
 * in the store alone for the length of the grace (under the key `keyOf` gives: a
 * digest, never a token), so every instance serves what any of them
 * verified. Consulted only when a verification failed for an outage.
 */
export class OutageGrace {
  /** This process's records, kept only without a shared store (with one, the store's record is the only one trusted). */
  readonly #local: LazyLru<string, GraceRecord> | undefined;
  #window: GraceWindow | undefined;

  readonly graceMs: number;
  private readonly clock: Clock;
  private readonly shared: StoreGuard | undefined;
  private readonly keyOf: (kind: Kind, digest: string) => string;
  private readonly logger: Logger;

  constructor(
    graceMs: number,
    clock: Clock,
    shared: StoreGuard | undefined,
    keyOf: (kind: Kind, digest: string) => string,
    logger: Logger,
    monotonic: MonotonicClock,
  ) {
    this.graceMs = graceMs;
    this.clock = clock;
    this.shared = shared;
    this.keyOf = keyOf;
    this.logger = logger;
    this.#local = shared !== undefined ? undefined : new LazyLru<string, GraceRecord>({ max: OUTAGE_GRACE_MAX_ENTRIES, ttl: graceMs, ttlAutopurge: false, perf: monotonic });
  }

  /**
   * The platform verified the token: its grace starts again from now. With
   * a shared store, settles once the store has the record (or gave up).
   * Closes a grace window that was open: the platform answers again.
   */
  remember(kind: Kind, digest: string, user: GameUser): Promise<unknown> | undefined {
    const record: GraceRecord = { memberNo: user.memberNo, guid: user.guid, verifiedAt: this.clock.now() };
    const key = this.keyOf(kind, digest);
    this.#local?.set(key, record);
    if (this.#window !== undefined) this.#close(this.#window);
    return this.shared?.run((store) => store.set(key, record, this.graceMs));
  }

  /** The token was refused or revoked: it is never served in grace again, here or (with a shared store) anywhere. */
  drop(kind: Kind, digest: string): Promise<unknown> {
    const key = this.keyOf(kind, digest);
    this.#local?.delete(key);
    return this.shared?.run((store) => store.delete(key)) ?? Promise.resolve();
  }

  /**
   * A verification failed with `error`. In an outage, resolves to the user as
   * last verified (marked `servedInGrace`) when that was within the grace;
   * a platform refusal drops the token's record. Otherwise rejects with
   * `error` as it is.
   */
  async answerFailure(kind: Kind, digest: string, error: unknown): Promise<GameUser> {
    if (!isPlatformOutage(error)) {
      if (isPlatformError(error) && (error.kind === 'invalid_token' || error.kind === 'device_not_registered')) await this.drop(kind, digest);
      throw error;
    }
    const window = this.#window ?? this.#open();
    const record = await this.#find(this.keyOf(kind, digest));
    const age = record === undefined ? Infinity : this.clock.now() - record.verifiedAt;
    // A record stamped ahead of this clock (another instance's skew) counts no more than one stamped as far behind.
    if (record === undefined || Math.abs(age) >= this.graceMs) {
      window.refused += 1;
      throw error;
    }
    window.served += 1;
    return { memberNo: record.memberNo, guid: record.guid, servedInGrace: true };
  }

  /**
   * The record to trust: with a shared store, the store's only (a refusal or
   * revocation on another instance deleted it there; while the store does not
   * answer, such a refusal cannot be ruled out, so nothing is served in
   * grace); without one, this process's.
   */
  async #find(key: string): Promise<GraceRecord | undefined> {
    if (this.shared === undefined) return this.#local?.get(key);
    const value = await this.shared.run((store) => store.get(key));
    return value === STORE_FAILED ? undefined : recordOf(value);
  }

  #open(): GraceWindow {
    const window: GraceWindow = { openedAt: this.clock.now(), served: 0, refused: 0 };
    this.#window = window;
    this.logger.warn({ outageGraceMs: this.graceMs }, 'passport-game-platform: the platform is out of service; tokens verified successfully within the outage grace are served in grace until it answers again');
    return window;
  }

  #close(window: GraceWindow): void {
    this.#window = undefined;
    this.logger.info(
      { servedInGrace: window.served, refusedInGrace: window.refused, durationMs: this.clock.now() - window.openedAt },
      'passport-game-platform: the platform answers again; the outage grace window is closed',
    );
  }
}

/**
 * The client's outage grace, or undefined when it is off (`outageGraceMs`
 * unset or 0). Throws a `TypeError` naming the option when it is not a whole
 * number of ms from 0 to {@link MAX_OUTAGE_GRACE_MS}.
 */
export function outageGrace(
  options: OutageGraceOptions,
  config: { clock: Clock; monotonic: MonotonicClock; logger: Logger },
  shared: StoreGuard | undefined,
  keyOf: (kind: Kind, digest: string) => string,
): OutageGrace | undefined {
  const graceMs = options.outageGraceMs ?? 0;
  if (typeof graceMs !== 'number' || !Number.isInteger(graceMs) || graceMs < 0 || graceMs > MAX_OUTAGE_GRACE_MS) {
    throw new TypeError(`PlatformClient: outageGraceMs must be an integer number of ms from 0 to ${MAX_OUTAGE_GRACE_MS}`);
  }
  return graceMs === 0 ? undefined : new OutageGrace(graceMs, config.clock, shared, keyOf, config.logger, config.monotonic);
}

/** Tells the `outage-grace` channel that one caller was answered in grace. */
export function tellServedInGrace(kind: Kind): void {
  if (outageGraceChannel.hasSubscribers) outageGraceChannel.publish({ kind } satisfies OutageGraceMessage);
}
