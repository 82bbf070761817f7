/** API token lifetime assumed when E1 gives no `expires_in` (the platform's default, 30 days). */
export const DEFAULT_API_TOKEN_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * Renew once less than this fraction of the lifetime remains. E1 hands the
 * same token back while 30 % or more remains, and `expires_in` is rounded down
 * to seconds, so renewing a little past that point gets a new token at once.
 */
export const RENEW_REMAINING_FRACTION = 0.28;
/**
 * After a failed background renewal, or one that handed back the held token,
 * wait this long before trying again; doubled on each further miss up to
 * {@link RENEWAL_RETRY_MAX_MS}, so a platform whose lifetime differs from ours
 * is asked a handful of times a day, not every few seconds.
 */
export const RENEWAL_RETRY_MS = 10_000;
/** Longest wait between two background renewal attempts. */
export const RENEWAL_RETRY_MAX_MS = 3_600_000;

/** The wait before the next renewal attempt after `misses` consecutive ones. */
export function renewalRetryDelayMs(misses: number): number {
  return Math.min(RENEWAL_RETRY_MAX_MS, RENEWAL_RETRY_MS * 2 ** Math.max(0, misses - 1));
}
/** After a configuration failure of E1 (40105, or the rejected token handed back), E1 is not called again for this long. */
export const CONFIGURATION_BACKOFF_MS = 60_000;
// A token is not used in its last moments, so it cannot expire in flight.
const EXPIRY_MARGIN_MS = 5000;
const EXPIRY_MARGIN_FRACTION = 0.01;

/** The API token held by the provider. Times are `clock.now()` values; no timer is ever set (a sleeping laptop or a paused VM would fire it late). */
export interface HeldToken {
  readonly token: string;
  readonly fingerprint: string;
  readonly lifetimeMs: number;
  readonly expiresAt: number;
  readonly renewAt: number;
  readonly usableUntil: number;
}

/**
 * Times of a token issued (or handed back) at `now`. A handed-back token
 * keeps the lifetime first seen, since `expires_in` is then what remains.
 */
export function holdToken(
  token: string, fingerprint: string, now: number, expiresInMs: number | undefined, previous: HeldToken | undefined,
): HeldToken {
  const same = previous?.token === token;
  const lifetimeMs = same ? previous.lifetimeMs : expiresInMs ?? DEFAULT_API_TOKEN_LIFETIME_MS;
  const expiresAt = expiresInMs !== undefined ? now + expiresInMs : same ? previous.expiresAt : now + lifetimeMs;
  return {
    token,
    fingerprint,
    lifetimeMs,
    expiresAt,
    renewAt: expiresAt - lifetimeMs * RENEW_REMAINING_FRACTION,
    usableUntil: expiresAt - Math.min(EXPIRY_MARGIN_MS, lifetimeMs * EXPIRY_MARGIN_FRACTION),
  };
}
