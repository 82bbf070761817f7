import type { ResolvedEmulatorOptions } from './context.js';

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

/** Loopback host names: localhost (and *.localhost), 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '[::1]' || h === '::1';
}

/**
 * The URL to redirect to after login or logout, or null when it is not allowed: only absolute
 * http(s) URLs without user info whose host is loopback, the emulator's own host, or one of
 * `allowedRedirectHosts` (no open redirect).
 */
export function safeRedirectUrl(raw: string | null | undefined, options: ResolvedEmulatorOptions): string | null {
  if (typeof raw !== 'string' || raw === '') return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  const host = url.hostname.toLowerCase();
  const own = options.host.toLowerCase();
  const allowed = isLoopbackHost(host)
    || (!WILDCARD_HOSTS.has(own) && (host === own || host === `[${own}]`))
    || options.allowedRedirectHosts.includes(host);
  return allowed ? url.href : null;
}
