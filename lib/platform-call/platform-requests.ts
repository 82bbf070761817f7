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

/**
 * What every call of one client sends that does not change per call: paths
 * computed once, and the API-token headers built once per API token (the
 * transport reuses its merge with its own headers while the object is the same).
 */
export class PlatformRequests {
  /** `/member/v3.0/{game_id}`: E3 and the web-token check. */
  readonly memberPath: string;
  /** E2's path. */
  readonly verifyPath: string;
  #token: string | undefined;
  #headers: Record<string, string> = {};

  constructor(private readonly config: ResolvedPlatformConfig) {
    this.memberPath = memberPath(config);
    this.verifyPath = `${this.memberPath}/token/verify`;
  }

  /** The headers for `apiToken`: the same object while the token is the same. Never change it. */
  headers(apiToken: string): Record<string, string> {
    if (apiToken !== this.#token) {
      this.#token = apiToken;
      this.#headers = apiHeaders(this.config, apiToken);
    }
    return this.#headers;
  }
}
