import crypto from 'node:crypto';

/** A tenant's scope id: 16 hex digits. */
export const SCOPE_ID = /^[0-9a-f]{16}$/;

/**
 * The scope every shared entry and event of one client belongs to: the
 * platform it verifies with (its base URL, so Live, Sandbox and an emulator
 * differ) and the game id. The first 16 hex digits of their SHA-256, so a
 * store key or a channel name says which tenant it is for without naming the
 * game or the host.
 */
export function tenantScope(baseUrl: string, gameId: string): string {
  // Encoded unambiguously: no base URL and game id can be cut differently into the same text.
  return crypto.hash('sha256', JSON.stringify([baseUrl, gameId]), 'hex').slice(0, 16);
}

/** The store key of `key` in `scope`. */
export const scopedKey = (scope: string, key: string): string => `${scope}:${key}`;
