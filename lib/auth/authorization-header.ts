import { invalidRequest } from '../errors/index.js';
import type { AuthRequest } from './types.js';

/** The `Authorization` header, read as a bearer credential. */
export type ParsedAuthorization =
  | { kind: 'none' }
  | { kind: 'other_scheme' }
  | { kind: 'bearer'; token: string };

// RFC 9110 token characters: an auth-scheme is made of these.
const SCHEME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+/;

/**
 * Every `Authorization` field line the client sent. Node keeps only the first
 * in `req.headers` (trap 10), so read `rawHeaders` (or `headersDistinct`).
 */
export function authorizationValues(req: AuthRequest): string[] {
  const values: string[] = [];
  const raw = req.rawHeaders;
  if (Array.isArray(raw)) {
    for (let i = 0; i + 1 < raw.length; i += 2) {
      const name = raw[i];
      if (name !== undefined && name.length === 13 && name.toLowerCase() === 'authorization') values.push(raw[i + 1] ?? '');
    }
    return values;
  }
  const distinct = req.headersDistinct?.['authorization'];
  if (Array.isArray(distinct)) return distinct;
  const value: unknown = req.headers.authorization;
  if (value === undefined) return values;
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * Parses one `Authorization` value per RFC 6750 2.1: the scheme is
 * case-insensitive and one or more spaces (0x20 only) separate it from the
 * token. Throws `invalidRequest` (400) for a malformed bearer credential;
 * the token's characters are checked later.
 */
export function parseAuthorization(value: string): ParsedAuthorization {
  const trimmed = value.replace(/^[ \t]+|[ \t]+$/g, '');
  if (trimmed === '') return { kind: 'none' };
  const scheme = SCHEME.exec(trimmed)?.[0];
  if (scheme === undefined) throw invalidRequest('malformed Authorization header');
  if (scheme.toLowerCase() !== 'bearer') return { kind: 'other_scheme' };
  const rest = trimmed.slice(scheme.length);
  if (rest === '') throw invalidRequest('missing bearer token');
  if (!rest.startsWith(' ')) throw invalidRequest('malformed Authorization header');
  const token = rest.replace(/^ +/, '');
  if (/[ \t]/.test(token)) throw invalidRequest('malformed Authorization header');
  return { kind: 'bearer', token };
}

/**
 * The bearer token of the request's `Authorization` header, or `undefined`
 * when there is none or it uses another scheme; two headers answer 400.
 */
export function readAuthorization(req: AuthRequest): string | undefined {
  const values = authorizationValues(req);
  if (values.length === 0) return undefined;
  if (values.length > 1) throw invalidRequest('more than one Authorization header');
  const parsed = parseAuthorization(values[0]!);
  return parsed.kind === 'bearer' ? parsed.token : undefined;
}
