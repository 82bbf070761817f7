import { invalidRequest } from '../errors/index.js';
import type { AuthRequest } from './types.js';

const PARAM = 'access_token';

/** `access_token`, or a nested/array form of it (`access_token[a]`, `access_token[]`, `access_token.a`). */
function isTokenKey(key: string): boolean {
  return key === PARAM || key.startsWith(`${PARAM}[`) || key.startsWith(`${PARAM}.`);
}

function hasOwn(value: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(value, key);
}

/** One string value for `access_token` in a parsed object, else 400. */
function singleValue(record: object, where: string): string | undefined {
  const keys = Object.keys(record).filter(isTokenKey);
  if (keys.length === 0) return undefined;
  const value: unknown = hasOwn(record, PARAM) ? (record as Record<string, unknown>)[PARAM] : undefined;
  if (keys.length > 1 || typeof value !== 'string') {
    throw invalidRequest(`repeated or nested access_token ${where} parameter`);
  }
  return value;
}

/**
 * The `access_token` query parameter as sent, or `undefined` when absent.
 * Reads the raw request target, so the app's query parser (qs, simple, none)
 * makes no difference. Repeated or nested forms throw `invalidRequest`.
 */
export function readQueryToken(req: AuthRequest): string | undefined {
  const target = typeof req.originalUrl === 'string' ? req.originalUrl : req.url;
  if (typeof target !== 'string') {
    return req.query !== null && typeof req.query === 'object' ? singleValue(req.query, 'query') : undefined;
  }
  const start = target.indexOf('?');
  if (start < 0) return undefined;
  // A key that decodes to access_token is spelled so, or escaped with '%': any other query
  // (a Socket.IO handshake's `EIO=4&transport=websocket`) holds none, and is not parsed.
  if (!target.includes(PARAM, start) && !target.includes('%', start)) return undefined;
  const values: string[] = [];
  for (const [key, value] of new URLSearchParams(target.slice(start + 1))) {
    if (!isTokenKey(key)) continue;
    if (key !== PARAM) throw invalidRequest('repeated or nested access_token query parameter');
    values.push(value);
  }
  if (values.length > 1) throw invalidRequest('repeated or nested access_token query parameter');
  return values[0];
}

/** The media type of the request body, lower-cased, without parameters. */
export function mediaType(req: AuthRequest): string {
  const header = req.headers['content-type'];
  return typeof header === 'string' ? (header.split(';')[0] ?? '').trim().toLowerCase() : '';
}

/**
 * Where the body carries a token: a form body's `access_token` (`'form'`),
 * a multipart one (`'multipart'`), or none. JSON and other bodies are never
 * read: their `access_token` is not a credential.
 */
export function readBodyToken(req: AuthRequest): { token: string; multipart: boolean } | undefined {
  const type = mediaType(req);
  const multipart = type === 'multipart/form-data';
  if (type !== 'application/x-www-form-urlencoded' && !multipart) return undefined;
  if (req.body === null || typeof req.body !== 'object') return undefined;
  const token = singleValue(req.body, 'body');
  return token === undefined ? undefined : { token, multipart };
}
