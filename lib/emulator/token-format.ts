import { randomBytes } from 'node:crypto';

/** An opaque API token: 128 random bytes as base64url, 171 characters like the platform's sample. */
export function newApiToken(): string {
  return randomBytes(128).toString('base64url');
}

/** An opaque user access or refresh token (base64url, 86 characters). */
export function newUserToken(): string {
  return randomBytes(64).toString('base64url');
}

const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

/**
 * A web token shaped like a JWT (`header.payload.signature`) but opaque: the payload carries no
 * identifiers and the signature is random, so only the emulator can check it.
 */
export function newWebToken(nowMs: number, lifetimeMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = b64({ alg: 'HS256', typ: 'JWT' });
  const payload = b64({ jti: randomBytes(12).toString('base64url'), iat, exp: iat + Math.floor(lifetimeMs / 1000) });
  return `${header}.${payload}.${randomBytes(32).toString('base64url')}`;
}

// The library's fingerprint (first 8 hex digits of SHA-256), so the emulator's request log, the
// client's events and the CLI label the same token the same way.
export { fingerprint } from '../hashing/fingerprint.js';

/** `***<last 4>` for long values, `***` for short ones (nothing of a short secret shows). */
export function maskSecret(value: string): string {
  return value.length >= 16 ? `***${value.slice(-4)}` : '***';
}
