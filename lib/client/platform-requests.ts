import type { ResolvedPlatformConfig } from '../config/index.js';

/** `/member/v3.0/{game_id}`, the base of E2, E3 and the web-token check. */
export function memberPath(config: ResolvedPlatformConfig): string {
  return `/member/v3.0/${encodeURIComponent(config.gameId)}`;
}

// The platform lists Content-Type: application/json for E2 and E3 alike (E3 is a GET with no body).
/** The headers of a call authenticated with the API token. */
export function apiHeaders(config: ResolvedPlatformConfig, apiToken: string): Record<string, string> {
  return { Authorization: `Bearer ${apiToken}`, 'caller-id': config.callerId, 'Content-Type': 'application/json' };
}
