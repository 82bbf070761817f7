import { invalidRequest } from '../errors/index.js';
import type { AuthRequest } from './types.js';

/** The `Authorization` header, read as a bearer credential. */
export type ParsedAuthorization =
  | { kind: 'none' }
  | { kind: 'other_scheme' }
  | { kind: 'bearer'; token: string };

const SPACE = 0x20;
const TAB = 0x09;

// RFC 9110 tchar (an auth-scheme is made of these), as a table by char code.
const TCHAR = new Uint8Array(128);
for (const c of "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz") TCHAR[c.charCodeAt(0)] = 1;


/**
 * Every `Authorization` field line the client sent. Node keeps only the first
 * in `req.headers` (a second, conflicting header would go unseen), so read `rawHeaders` (or `headersDistinct`).
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
 * the token's characters are checked later. One pass over the value with
 * index arithmetic: no regular expression, so no backtracking on long runs of
 * blanks (a trimming regex was quadratic there).
 */
export function parseAuthorization(value: string): ParsedAuthorization {
  let start = 0;
  let end = value.length;
  while (start < end && (value.charCodeAt(start) === SPACE || value.charCodeAt(start) === TAB)) start += 1;
  while (end > start && (value.charCodeAt(end - 1) === SPACE || value.charCodeAt(end - 1) === TAB)) end -= 1;
  if (start === end) return { kind: 'none' };
  let i = start;
  while (i < end && TCHAR[value.charCodeAt(i)] === 1) i += 1; // out-of-range codes read undefined
  if (i === start) throw invalidRequest('malformed Authorization header');
  if (i - start !== 6 || value.slice(start, i).toLowerCase() !== 'bearer') return { kind: 'other_scheme' };
  if (i === end) throw invalidRequest('missing bearer token');
  if (value.charCodeAt(i) !== SPACE) throw invalidRequest('malformed Authorization header');
  while (value.charCodeAt(i) === SPACE) i += 1; // stops before `end`: trailing blanks are gone
  for (let j = i; j < end; j += 1) {
    const c = value.charCodeAt(j);
    if (c === SPACE || c === TAB) throw invalidRequest('malformed Authorization header');
  }
  return { kind: 'bearer', token: value.slice(i, end) };
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
