import { SCOPE_ID } from './tenant-scope.js';

/** Why a player's sessions are ended: the game's logout, an admin action (a ban), or the server going down. */
export type SessionEndReason = 'logout' | 'admin' | 'shutdown';

/**
 * One token's sessions (after `revokeUserToken`) or one member's sessions
 * (after `endMemberSessions`) end; emitted by the client as `'session-end'`,
 * on the instance that asked and, through a {@link RevocationBus}, on every
 * other. `tokenKey` is the token's SHA-256 digest (`tokenKey(token)`), never
 * the token. `scope` is the tenant (platform and game, 16 hex digits) the
 * event belongs to: set on what a client hands its bus, and left out of what
 * it emits to its own listeners (always its own scope). `at`, when present,
 * is when the end was made: the making instance's wall clock (`Date.now()`,
 * ms), so another instance can tell how long the end took to reach it
 * (instances' clocks are assumed in step, as NTP keeps them); events without
 * it are still honoured.
 */
export type SessionEndEvent =
  | { kind: 'token'; tokenKey: string; reason: SessionEndReason; scope?: string; at?: number }
  | { kind: 'member'; memberNo: string; reason: SessionEndReason; scope?: string; at?: number };

/** How a client subscribes to its bus: to the events of its own tenant scope. */
export interface SubscribeOptions {
  /** The subscriber's tenant scope; a bus that has a channel per scope listens on that one. */
  scope?: string;
}

/**
 * Carries revocations and session ends to every instance (Redis pub/sub in
 * `passport-game-platform/redis`). A bus delivers an instance's own messages
 * to the other instances only.
 */
export interface RevocationBus {
  /** Sends an event to every other instance of its scope; may reject (the caller keeps the local effect). */
  publish(event: SessionEndEvent): Promise<unknown>;
  /**
   * Calls `listener` for events other instances publish; returns the
   * unsubscribe function. A bus may deliver other scopes' events too: the
   * client applies only its own scope's (and unscoped ones from the previous
   * release).
   */
  subscribe(listener: (event: SessionEndEvent) => void, options?: SubscribeOptions): () => void;
  /**
   * Optional: calls `listener` each time the bus's connection becomes ready
   * again, so events it could not take meanwhile are sent at once.
   */
  onReady?(listener: () => void): void;
  /** Optional: whether the bus is connected now (readiness). */
  health?(): { state: 'ready' | 'connecting' | 'down' };
}

const REASONS: ReadonlySet<string> = new Set(['logout', 'admin', 'shutdown']);
const DIGEST = /^[0-9a-f]{64}$/;
const DIGITS = /^[0-9]{1,40}$/;

/** A session-end event read from the wire, or undefined when it is not one (never trusted blindly). */
export function parseSessionEnd(value: unknown): SessionEndEvent | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.reason !== 'string' || !REASONS.has(v.reason)) return undefined;
  const reason = v.reason as SessionEndReason;
  // A scope that is there but not one (another type, another shape) is no event of ours: never read as unscoped.
  if (v.scope !== undefined && (typeof v.scope !== 'string' || !SCOPE_ID.test(v.scope))) return undefined;
  // A stamp that is not a plausible time is dropped, never a reason to refuse the end itself.
  const extra = {
    ...(v.scope === undefined ? {} : { scope: v.scope }),
    ...(typeof v.at === 'number' && Number.isSafeInteger(v.at) && v.at > 0 ? { at: v.at } : {}),
  };
  if (v.kind === 'token' && typeof v.tokenKey === 'string' && DIGEST.test(v.tokenKey)) return { kind: 'token', tokenKey: v.tokenKey, reason, ...extra };
  if (v.kind === 'member' && typeof v.memberNo === 'string' && DIGITS.test(v.memberNo)) return { kind: 'member', memberNo: v.memberNo, reason, ...extra };
  return undefined;
}
