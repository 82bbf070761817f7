import crypto from 'node:crypto';

// One-shot hashing (Node 20.12+) skips building a Hash object per call: this runs once per request.

/**
 * A short, non-reversible label for a secret (first 8 hex digits of its
 * SHA-256), safe to log or emit in place of the secret itself.
 *
 * @example
 * ```ts
 * import { fingerprint } from 'passport-game-platform';
 * const label = fingerprint('the-api-token'); // 8 hex digits, safe to log
 * ```
 */
export function fingerprint(secret: string): string {
  return crypto.hash('sha256', secret, 'hex').slice(0, 8);
}

/**
 * Full SHA-256 (hex) of a token: the key of caches and single-flight maps,
 * and the only form of a token a shared store or bus ever holds. Unkeyed on
 * purpose, so instances and releases agree on it: the platform's user and
 * web tokens are long random bearer strings, so the digest cannot be
 * reversed or guessed, and only tells a reader who already holds a token
 * whether it was cached or revoked.
 */
export function tokenKey(token: string): string {
  return crypto.hash('sha256', token, 'hex');
}
