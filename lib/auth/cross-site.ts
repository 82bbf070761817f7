import { PlatformError } from '../errors/index.js';
import type { AuthRequest } from './types.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);

function header(req: AuthRequest, name: string): string | undefined {
  const value: unknown = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The serialized origin (`scheme://host[:port]`, default port left out,
 * lower-cased) of an `Origin` header or of `scheme` + `Host`, or undefined
 * when it is not one (`null`, garbage, another scheme than http and https).
 */
export function serializedOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return undefined;
    return url.origin;
  } catch {
    return undefined;
  }
}

/**
 * The scheme the application is served on: the framework's own answer where
 * it has one (Express's and Fastify's `req.protocol`, which follow their
 * `trust proxy` setting), else whether this connection is TLS.
 */
function appScheme(req: AuthRequest): 'http' | 'https' {
  const protocol = (req as { protocol?: unknown }).protocol;
  if (protocol === 'https' || protocol === 'http') return protocol;
  const socket = (req as { socket?: { encrypted?: unknown } }).socket;
  return socket?.encrypted === true ? 'https' : 'http';
}

/** The application's own origin for this request, from its scheme and `Host`. */
function ownOrigin(req: AuthRequest): string | undefined {
  const host = header(req, 'host');
  if (host === undefined || host === '' || /[\s/\\?#@]/.test(host)) return undefined;
  return serializedOrigin(`${appScheme(req)}://${host}`);
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
 * hijacking: an upgrade counts as state-changing). Safe methods pass.
 *
 * - `Sec-Fetch-Site: same-origin` or `none` (typed in the address bar) passes.
 * - `Sec-Fetch-Site: cross-site` or `same-site` passes only when `Origin` is
 *   one of `allowedOrigins`: the browser itself says the request comes from
 *   elsewhere, and a sibling subdomain or the same host on another scheme is
 *   elsewhere.
 * - Without `Sec-Fetch-Site` (an older browser), the `Origin` must be the
 *   application's own (scheme, host and port: RFC 6454) or an allowed one.
 * - A browser's request with `Sec-Fetch-Site` but no `Origin` is refused; a
 *   request with neither header (not a browser) passes: the cookie's
 *   `SameSite` attribute is the other half of the defence.
 *
 * `allowedOrigins` holds serialized origins (`https://events.example.com`).
 */
export function assertSameSite(req: AuthRequest, allowedOrigins: ReadonlySet<string>): void {
  // A WebSocket upgrade is a GET, but what follows is a two-way session: check it too.
  const upgrade = header(req, 'upgrade');
  if (SAFE_METHODS.has((req.method ?? 'GET').toUpperCase()) && (upgrade === undefined || upgrade.toLowerCase() !== 'websocket')) return;
  const site = header(req, 'sec-fetch-site')?.toLowerCase();
  if (site === 'same-origin' || site === 'none') return;
  const originHeader = header(req, 'origin');
  if (originHeader === undefined) {
    if (site === undefined) return;
    throw crossSite();
  }
  const origin = serializedOrigin(originHeader);
  if (origin === undefined) throw crossSite();
  if (allowedOrigins.has(origin)) return;
  // The browser says the request comes from another origin: only the app's list lets it in.
  if (site === 'cross-site' || site === 'same-site') throw crossSite();
  if (origin === ownOrigin(req)) return;
  throw crossSite();
}
