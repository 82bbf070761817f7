import { PlatformError } from '../errors/index.js';
import type { AuthRequest } from './types.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function header(req: AuthRequest, name: string): string | undefined {
  const value: unknown = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

// The host part of a serialized origin (`scheme://host[:port]`), lower-cased.
function hostOf(origin: string): string | undefined {
  const at = origin.indexOf('://');
  return at < 0 ? undefined : origin.slice(at + 3).toLowerCase();
}

function crossSite(): PlatformError {
  return new PlatformError({
    kind: 'cross_site',
    message: 'Cross-site request refused: a state-changing request authenticated by a cookie must come from this site or an allowed origin.',
  });
}

/**
 * Refuses a cross-site state-changing request that a browser authenticated
 * with the web token cookie on its own (CSRF, and cross-site WebSocket
 * hijacking: an upgrade counts as state-changing). Safe methods pass. Otherwise
 * `Sec-Fetch-Site: same-origin` or `none` passes; else the `Origin` must be
 * the request's own host or one of `allowedOrigins`; a browser's same-site or
 * cross-site request without an `Origin` is refused. A request with neither
 * header (not a browser) passes: the cookie's `SameSite` attribute is the
 * other half of the defence.
 */
export function assertSameSite(req: AuthRequest, allowedOrigins: ReadonlySet<string>): void {
  // A WebSocket upgrade is a GET, but what follows is a two-way session: check it too.
  const upgrade = header(req, 'upgrade');
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase()) && (upgrade === undefined || upgrade.toLowerCase() !== 'websocket')) return;
  const site = header(req, 'sec-fetch-site');
  if (site === 'same-origin' || site === 'none') return;
  const origin = header(req, 'origin');
  if (origin === undefined) {
    if (site === undefined) return;
    throw crossSite();
  }
  if (allowedOrigins.has(origin)) return;
  const host = header(req, 'host');
  if (host !== undefined && origin !== 'null' && hostOf(origin) === host.toLowerCase()) return;
  throw crossSite();
}
