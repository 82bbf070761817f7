import type { MonotonicClock } from '../time/monotonic.js';
import { revocationChannel, sessionEndChannel } from '../diagnostics/channels.js';
import type { RevocationMessage, SessionEndMessage } from '../diagnostics/channels.js';
import type { Logger } from '../types.js';
import type { RevocationBus, SessionEndEvent, SessionEndReason } from './session-end.js';
import { LazyLru } from './lazy-lru.js';
import { STORE_FAILED } from './store-guard.js';
import type { StoreGuard } from './store-guard.js';
import { scopedKey } from './tenant-scope.js';

/** A user token lives at most 6 hours: a revocation is kept that long, then the platform refuses the token anyway. */
export const REVOCATION_TTL_MS = 6 * 60 * 60 * 1000;
/** Most revocations held in this process's memory. */
export const LOCAL_REVOCATIONS_MAX = 100_000;

/**
 * How long a member end made while the bus could not be reached is kept for
 * resending: 10 minutes, the catch-up window of the Redis log. Later, the
 * player's new sessions are not the ones the admin meant to end.
 */
export const MEMBER_END_RESEND_MS = 10 * 60 * 1000;
/** Most member ends held for resending (the oldest go first). */
export const UNSENT_MEMBER_ENDS_MAX = 10_000;
/** Longest wait for the bus to take one event before it is held for resending. */
export const PUBLISH_TIMEOUT_MS = 2000;

/**
 * What a revocation check knows: `true` revoked, `false` not revoked, or
 * `'unknown'` (the shared store could not be read in time and is not known to
 * be down: the caller must not treat the token as valid).
 */
export type RevocationAnswer = boolean | 'unknown';

/**
 * Store key of a revocation marker, within a tenant scope when one is given.
 * The unscoped key is the previous release's: written and read beside the
 * scoped one while the store keeps it for a rolling upgrade.
 */
export const revokedKey = (digest: string, scope?: string): string => (scope === undefined ? `revoked:${digest}` : scopedKey(scope, `revoked:${digest}`));

interface Unsynced {
  event: SessionEndEvent;
  /** When the revocation was made (monotonic), to store the marker for the rest of its 6 hours. */
  at: number;
}

/**
 * Revoked tokens, by digest: held in this process (so a revocation made while
 * the shared store is down still holds here), written to the shared store for
 * 6 hours (so instances that missed the message, or start later, refuse it
 * too), and carried to every instance by the bus. Session ends (token or
 * member) go the same way and surface as the client's `'session-end'` event.
 * Markers and events belong to the client's tenant scope (platform and game):
 * an event of another scope is never applied here.
 */
export class Revocations {
  readonly #local: LazyLru<string, true>;
  readonly #unsynced = new Map<string, Unsynced>();
  readonly #unsentMemberEnds: Unsynced[] = [];
  readonly #unsubscribe: (() => void) | undefined;
  #flushing = false;
  /**
   * True when no token can be revoked without looking it up: none held here
   * and no shared store to ask. A verification then needs no digest for it.
   * A plain field, read on every verification: kept by this class (the local
   * markers are never deleted, so it turns false for good at the first one).
   * Read it, never write it.
   */
  holdsNone: boolean;

  private readonly shared: StoreGuard | undefined;
  private readonly bus: RevocationBus | undefined;
  private readonly clock: MonotonicClock;
  private readonly logger: Logger;
  private readonly onEnd: (event: SessionEndEvent, origin: 'local' | 'remote') => void;
  private readonly scope: string;

  constructor(
    shared: StoreGuard | undefined,
    bus: RevocationBus | undefined,
    clock: MonotonicClock,
    logger: Logger,
    onEnd: (event: SessionEndEvent, origin: 'local' | 'remote') => void,
    scope: string,
  ) {
    this.shared = shared;
    this.bus = bus;
    this.clock = clock;
    this.logger = logger;
    this.onEnd = onEnd;
    this.scope = scope;
    this.#local = new LazyLru<string, true>({
      max: LOCAL_REVOCATIONS_MAX, ttl: REVOCATION_TTL_MS, ttlResolution: 0, ttlAutopurge: false, perf: clock,
    });
    this.holdsNone = shared === undefined;
    shared?.onRecovery(() => void this.#flush());
    bus?.onReady?.(() => void this.#flush());
    this.#unsubscribe = bus?.subscribe((event) => this.#remote(event), { scope });
  }

  /** Marks a token revoked in this process. */
  #hold(digest: string): void {
    this.#local.set(digest, true);
    this.holdsNone = false;
  }

  /** True when this process knows the token as revoked (no I/O). */
  isRevokedHere(digest: string): boolean {
    return this.#local.has(digest);
  }

  /**
   * Whether this process or the shared store knows the token as revoked. A
   * marker that is present (whatever its value or type) means revoked. A
   * marker read that fails or comes late is `'unknown'`, unless the store is
   * known to be down (closed, refusing us): then this instance serves from
   * what it knows here, the revocations it made or received. No promise
   * without a shared store.
   */
  isRevoked(digest: string): RevocationAnswer | Promise<RevocationAnswer> {
    if (this.#local.has(digest)) return true;
    if (this.shared === undefined) return false;
    return this.#askShared(digest, this.shared);
  }

  async #askShared(digest: string, shared: StoreGuard): Promise<RevocationAnswer> {
    // This release's marker and, during a rolling upgrade, the previous release's, read at once.
    const markers: unknown[] = await Promise.all(this.#markerKeys(digest).map((key) => shared.run((store) => store.get(key))));
    const present = markers.some((marker) => marker !== STORE_FAILED && marker !== undefined && marker !== null);
    if (!present && markers.includes(STORE_FAILED)) {
      if (this.#local.has(digest)) return true;
      return shared.knownDown ? false : 'unknown';
    }
    if (!present) return false;
    // Learnt from the store (the bus message was missed): remember it here too.
    this.#hold(digest);
    return true;
  }

  async revoke(digest: string, reason: SessionEndReason): Promise<void> {
    this.#hold(digest);
    publishRevocation(digest, 'local');
    const event: SessionEndEvent = { kind: 'token', tokenKey: digest, reason, scope: this.scope, at: Date.now() };
    this.onEnd(bare(event), 'local');
    await this.#share(event, this.clock.now());
  }

  async endMember(memberNo: string, reason: SessionEndReason): Promise<void> {
    const event: SessionEndEvent = { kind: 'member', memberNo, reason, scope: this.scope, at: Date.now() };
    this.onEnd(bare(event), 'local');
    if (await this.#publish(event)) return;
    // Not sent: held and sent again once the bus answers, like a revocation.
    if (this.#unsentMemberEnds.length >= UNSENT_MEMBER_ENDS_MAX) this.#unsentMemberEnds.shift();
    this.#unsentMemberEnds.push({ event, at: this.clock.now() });
    this.logger.warn({ memberNo }, 'passport-game-platform: a member end reached this instance only; it is sent to the others once the bus answers again');
  }

  get unsynced(): number {
    return this.#unsynced.size;
  }

  /** Member ends made while the bus could not be reached, waiting to be sent. */
  get unsentMemberEnds(): number {
    return this.#unsentMemberEnds.length;
  }

  close(): void {
    this.#unsubscribe?.();
  }

  /**
   * The store keys of a token's revocation: under this client's scope, and
   * the previous release's unscoped key while the store keeps it for a
   * rolling upgrade (`store.rollingUpgrade`). Only then: a web token is the
   * member's on every game, so an unscoped marker would refuse it in the
   * other games of a shared prefix too.
   */
  #markerKeys(digest: string): string[] {
    const scoped = revokedKey(digest, this.scope);
    return this.shared?.store.rollingUpgrade === true ? [scoped, revokedKey(digest)] : [scoped];
  }

  async #share(event: SessionEndEvent & { kind: 'token' }, at: number): Promise<void> {
    const ttlMs = REVOCATION_TTL_MS - (this.clock.now() - at);
    if (ttlMs <= 0) return;
    let stored = true;
    if (this.shared !== undefined) {
      const shared = this.shared;
      const results = await Promise.all(this.#markerKeys(event.tokenKey).map((key) => shared.run((store) => store.set(key, 1, ttlMs))));
      stored = !results.includes(STORE_FAILED);
    }
    const published = await this.#publish(event);
    if (stored && published) this.#unsynced.delete(event.tokenKey);
    else if (!this.#unsynced.has(event.tokenKey)) {
      this.#unsynced.set(event.tokenKey, { event, at });
      this.logger.warn({ tokenFingerprint: event.tokenKey.slice(0, 8) }, 'passport-game-platform: a revocation holds on this instance only until the shared store answers again');
    }
  }

  async #publish(event: SessionEndEvent): Promise<boolean> {
    if (this.bus === undefined) return true;
    let timer: NodeJS.Timeout | undefined;
    try {
      // A bus that never answers (a silent network) must not hold the caller's logout.
      const late = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(new Error('timeout')), PUBLISH_TIMEOUT_MS);
      });
      await Promise.race([this.bus.publish(event), late]);
      return true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  // The store answers again: send what was revoked here meanwhile.
  async #flush(): Promise<void> {
    if (this.#flushing || (this.#unsynced.size === 0 && this.#unsentMemberEnds.length === 0)) return;
    this.#flushing = true;
    try {
      for (const { event, at } of [...this.#unsynced.values()]) await this.#share(event as SessionEndEvent & { kind: 'token' }, at);
      while (this.#unsentMemberEnds.length > 0) {
        const { event, at } = this.#unsentMemberEnds[0]!;
        if (this.clock.now() - at <= MEMBER_END_RESEND_MS && !(await this.#publish(event))) break;
        this.#unsentMemberEnds.shift();
      }
    } finally {
      this.#flushing = false;
    }
  }

  #remote(event: SessionEndEvent): void {
    // Another game's or platform's event, whatever bus or channel carried it, is not ours. An
    // event with no scope comes from an instance of the previous release (a bus delivers those
    // only while it keeps the rolling-upgrade channel): its token ends are safe to apply, a token
    // being valid for one tenant only.
    if (event.scope !== undefined && event.scope !== this.scope) return;
    if (event.kind === 'token') {
      this.#hold(event.tokenKey);
      publishRevocation(event.tokenKey, 'remote');
    }
    this.onEnd(bare(event), 'remote');
    publishApplied(event);
  }
}

/** The event as the client's listeners see it: their own scope goes without saying. */
function bare(event: SessionEndEvent): SessionEndEvent {
  const at = event.at === undefined ? {} : { at: event.at };
  return event.kind === 'token'
    ? { kind: 'token', tokenKey: event.tokenKey, reason: event.reason, ...at }
    : { kind: 'member', memberNo: event.memberNo, reason: event.reason, ...at };
}

/** An end made on another instance was applied here: how long after it was made (wall clocks). */
function publishApplied(event: SessionEndEvent): void {
  if (!sessionEndChannel.hasSubscribers || event.at === undefined) return;
  sessionEndChannel.publish({ kind: event.kind, reason: event.reason, lagMs: Math.max(0, Date.now() - event.at) } satisfies SessionEndMessage);
}

function publishRevocation(digest: string, origin: RevocationMessage['origin']): void {
  if (revocationChannel.hasSubscribers) revocationChannel.publish({ tokenFingerprint: digest.slice(0, 8), origin } satisfies RevocationMessage);
}
