import { newApiToken } from './token-format.js';
import type { ValidClient } from './seed.js';

/** An API Access Token the emulator issued. */
export interface ApiTokenRecord {
  readonly token: string;
  readonly clientId: string;
  readonly serviceId: string;
  readonly instanceId: string | null;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

/** Result of checking a bearer API token. */
export type ApiTokenCheck =
  | { ok: true; record: ApiTokenRecord }
  | { ok: false; reason: 'unknown' | 'expired' };

/** The share of the lifetime that must remain for E1 to hand the held token back. */
export const REUSE_THRESHOLD = 0.3;

/**
 * API tokens per (client_id, instance_id). E1 returns the held token while 30 % or more of its
 * lifetime remains, else a new one; a replaced token stays valid until its own expiry.
 */
export class ApiTokenStore {
  private readonly held = new Map<string, ApiTokenRecord>();
  private readonly byToken = new Map<string, ApiTokenRecord>();

  /** Returns the token to hand out and its remaining lifetime in whole seconds. */
  issue(client: ValidClient, instanceId: string | null, now: number): { record: ApiTokenRecord; expiresIn: number } {
    const key = `${client.client_id}\u0000${instanceId ?? ''}`;
    const ttlMs = client.api_token_ttl_seconds * 1000;
    const current = this.held.get(key);
    if (current && current.expiresAt - now >= REUSE_THRESHOLD * (current.expiresAt - current.issuedAt)) {
      return { record: current, expiresIn: Math.floor((current.expiresAt - now) / 1000) };
    }
    this.pruneExpired(now);
    const record: ApiTokenRecord = Object.freeze({
      token: newApiToken(),
      clientId: client.client_id,
      serviceId: client.service_id,
      instanceId,
      issuedAt: now,
      expiresAt: now + ttlMs,
    });
    this.held.set(key, record);
    this.byToken.set(record.token, record);
    return { record, expiresIn: client.api_token_ttl_seconds };
  }

  check(token: string, now: number): ApiTokenCheck {
    const record = this.byToken.get(token);
    if (!record) return { ok: false, reason: 'unknown' };
    if (now >= record.expiresAt) return { ok: false, reason: 'expired' };
    return { ok: true, record };
  }

  /**
   * Forgets tokens expired for longer than their own lifetime (bounded memory in long runs); a
   * recently expired token is kept so that it still answers 40103, not 40101.
   */
  private pruneExpired(now: number): void {
    for (const [token, r] of this.byToken) {
      if (now >= r.expiresAt + (r.expiresAt - r.issuedAt)) this.byToken.delete(token);
    }
  }
}
