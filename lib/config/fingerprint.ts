import { createHash } from 'node:crypto';

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
  return createHash('sha256').update(secret).digest('hex').slice(0, 8);
}

/** Full SHA-256 (hex) of a token: the key of caches and single-flight maps. */
export function tokenKey(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
