import { invalidRequest } from '../errors/index.js';
import type { AuthRequest } from './types.js';

function decode(value: string): string {
  const unquoted = value.length >= 2 && value.startsWith('"') && value.endsWith('"') ? value.slice(1, -1) : value;
  if (!unquoted.includes('%')) return unquoted;
  try {
    return decodeURIComponent(unquoted);
  } catch {
    return unquoted; // left as is: '%' then fails the token syntax check
  }
}

/**
 * Every non-empty value of cookie `name` in a `Cookie` header (RFC 6265 5.4
 * syntax, names case-sensitive), unquoted and percent-decoded like the
 * `cookie` package does. Never throws.
 */
export function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const eq = pair.indexOf('=');
    if (eq < 0) continue;
    if (pair.slice(0, eq).trim() !== name) continue;
    const value = decode(pair.slice(eq + 1).trim());
    if (value !== '') values.push(value);
  }
  return values;
}

/**
 * The web token from cookie `name`, or `undefined` when there is none (an
 * empty cookie counts as none: it is how a logout clears it). Two different
 * values (cookies set on two domains or paths) are ambiguous: 400.
 */
export function readCookieToken(req: AuthRequest, name: string): string | undefined {
  const header: unknown = req.headers.cookie;
  let values: string[];
  if (typeof header === 'string') {
    values = cookieValues(header, name);
  } else if (req.cookies !== null && typeof req.cookies === 'object') {
    const value: unknown = (req.cookies as Record<string, unknown>)[name];
    values = typeof value === 'string' && Object.prototype.hasOwnProperty.call(req.cookies, name) && value !== '' ? [value] : [];
  } else {
    values = [];
  }
  if (new Set(values).size > 1) throw invalidRequest('more than one token cookie');
  return values[0];
}
