import { fingerprint } from '../index.js';

/** A token's SHA-256 fingerprint, the only form in which the CLI shows tokens. */
export function tokenFingerprint(token: string): string {
  return `sha256:${fingerprint(token)}`;
}

/** `2025-01-31T10:00:00.000Z (in 29 d 23 h)`: an expiry, absolute and relative. */
export function describeExpiry(expiresAtMs: number, nowMs: number = Date.now()): string {
  const iso = new Date(expiresAtMs).toISOString();
  const left = expiresAtMs - nowMs;
  if (left <= 0) return `${iso} (expired)`;
  const minutes = Math.floor(left / 60_000);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const rest = minutes % 60;
  const parts = days > 0 ? [`${days} d`, `${hours} h`] : hours > 0 ? [`${hours} h`, `${rest} min`] : [`${rest} min`];
  return `${iso} (in ${parts.join(' ')})`;
}
