/** Base URL of the Live platform. */
export const LIVE_BASE_URL = 'https://api.onstove.com';
/** Base URL of the Sandbox platform. */
export const SANDBOX_BASE_URL = 'https://api.gate8.com';

/** Per-attempt timeout of one platform call (the platform's server sample uses 5 s). */
export const DEFAULT_TIMEOUT_MS = 5000;
/** Whole budget of one operation, retries and API-token issuance included. */
export const DEFAULT_TOTAL_TIMEOUT_MS = 15_000;
/** Retries after the first attempt, for transient faults only. */
export const DEFAULT_RETRIES = 2;
/** Base of the full-jitter backoff between retries. */
export const DEFAULT_RETRY_BASE_DELAY_MS = 100;
/** Cap of one backoff delay, and of an honoured `Retry-After`. */
export const DEFAULT_RETRY_MAX_DELAY_MS = 1000;
/** Platform calls in flight at once, per HTTP layer. */
export const DEFAULT_MAX_CONCURRENT_CALLS = 64;
/** Calls allowed to wait for a free slot; beyond that a call fails fast (503 `overloaded`). */
export const DEFAULT_MAX_QUEUED_CALLS = 1024;
/** Consecutive failed platform calls (transport faults, 5xx, 50000) that open the circuit breaker. */
export const DEFAULT_CIRCUIT_FAILURE_THRESHOLD = 10;
/** How long an open circuit answers 503 at once before letting one probe call through. */
export const DEFAULT_CIRCUIT_OPEN_MS = 5000;
/** Longest accepted open period of the circuit breaker. */
export const MAX_CIRCUIT_OPEN_MS = 300_000;
/** Entries of the opt-in result cache. */
export const DEFAULT_CACHE_MAX_ENTRIES = 10_000;
/** Longest result-cache TTL allowed: a user token revoked on the platform is trusted at most this long. */
export const MAX_CACHE_TTL_MS = 300_000;

/** Longest accepted per-attempt timeout. */
export const MAX_TIMEOUT_MS = 120_000;
/** Longest accepted whole-call budget (well under the 2^31-1 ms timer limit). */
export const MAX_TOTAL_TIMEOUT_MS = 600_000;
/** Most retries accepted. */
export const MAX_RETRIES = 10;
/** Longest accepted backoff delay. */
export const MAX_RETRY_DELAY_MS = 60_000;
/**
 * Longest user or web token accepted (the platform's PC SDK buffer holds 4096
 * characters); a longer one is 401 `invalid_token` without a platform call.
 */
export const MAX_TOKEN_LENGTH = 4096;
/**
 * How long a user token the platform refused (40000) is answered 401 without
 * asking again: a refused token never becomes valid, and a flood of the same
 * garbage token must not become a flood of platform calls. 0 turns it off.
 */
export const DEFAULT_INVALID_TOKEN_CACHE_MS = 5000;
/** Longest accepted `invalidTokenCacheMs`. */
export const MAX_INVALID_TOKEN_CACHE_MS = 600_000;
