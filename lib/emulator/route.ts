import type { EndpointName } from './types.js';

/** What a request is, from its path and query. */
export interface Route {
  readonly endpoint: EndpointName;
  /** E2, E3 and web: the `{game_id}` path segment, decoded. */
  readonly gameId?: string;
  /** The method the endpoint accepts (control and login-page routes check their own). */
  readonly method?: 'GET' | 'POST';
}

const E2_PATH = /^\/member\/v3\.0\/([^/]+)\/token\/verify$/;
const MEMBER_PATH = /^\/member\/v3\.0\/([^/]+)$/;

function decode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/**
 * Classifies a request. `GET /member/v3.0/{game_id}` with no query at all is the web token route;
 * with any query it is E3 (which answers 40000 when the query is wrong).
 */
export function classify(url: URL): Route {
  const path = url.pathname;
  if (path === '/auth/v5/server_token') return { endpoint: 'E1', method: 'POST' };
  const e2 = E2_PATH.exec(path);
  if (e2) {
    const gameId = decode(e2[1] ?? '');
    return gameId === null ? { endpoint: 'unknown' } : { endpoint: 'E2', gameId, method: 'POST' };
  }
  const member = MEMBER_PATH.exec(path);
  if (member) {
    const gameId = decode(member[1] ?? '');
    if (gameId === null) return { endpoint: 'unknown' };
    return { endpoint: url.search === '' || url.search === '?' ? 'web' : 'E3', gameId, method: 'GET' };
  }
  if (path === '/_emulator/web' || path.startsWith('/_emulator/web/')) return { endpoint: 'login-page' };
  if (path.startsWith('/_emulator/')) return { endpoint: 'control' };
  return { endpoint: 'unknown' };
}
