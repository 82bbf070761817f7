import { LazyLru } from '../store/index.js';
import type { SessionEndEvent, SessionEndReason } from './types.js';

/** How long a session end is remembered for handshakes still being verified: 60 s (above any verification budget). */
export const RECENT_END_TTL_MS = 60_000;
/** Most session ends remembered at once (tokens and members together). */
export const RECENT_ENDS_MAX = 5000;

interface Ended {
  reason: SessionEndReason;
  /** When it ended, on the registry's clock. */
  at: number;
}

/**
 * The session ends (revoked tokens, ended members) of the last minute, so a
 * connection whose handshake was being verified when its session ended is
 * ended as soon as it is registered, instead of at the next re-verification.
 * Bounded: at most {@link RECENT_ENDS_MAX} entries, each for {@link RECENT_END_TTL_MS}.
 */
export class RecentEnds {
  readonly #ended: LazyLru<string, Ended>;
  readonly #now: () => number;

  constructor(now: () => number) {
    this.#now = now;
    this.#ended = new LazyLru<string, Ended>({ max: RECENT_ENDS_MAX, ttl: RECENT_END_TTL_MS, ttlResolution: 0, ttlAutopurge: false, perf: { now } });
  }

  /** Remembers a session-end event. */
  note(event: SessionEndEvent): void {
    const key = event.kind === 'token' ? `t:${event.tokenKey}` : `m:${event.memberNo}`;
    this.#ended.set(key, { reason: event.reason, at: this.#now() });
  }

  /**
   * Why a connection on `tokenKey` for `memberNo` must end: its token was
   * ended (whenever, in the last minute: a revoked token stays revoked), or
   * its member was ended at or after `since` (when its handshake began).
   */
  endedReason(tokenKey: string, memberNo: string, since: number | undefined): SessionEndReason | undefined {
    const token = this.#ended.get(`t:${tokenKey}`);
    if (token !== undefined) return token.reason;
    const member = since === undefined ? undefined : this.#ended.get(`m:${memberNo}`);
    return member !== undefined && member.at >= since! ? member.reason : undefined;
  }
}
