import type { IncomingMessage } from 'node:http';
import { fingerprint, maskSecret } from './token-format.js';
import type { EndpointName, RequestFilter, RequestLogEntry } from './types.js';

const SECRET_NAME = /token|secret|password|passwd|key|session|signature/i;
/**
 * The bearer (or other scheme's) credential of an Authorization header, or
 * null. `trim` and one search for the first blank: linear in the header's
 * length (a lazy regular expression here was quadratic on runs of blanks).
 */
export function authorizationCredential(header: string | undefined): { scheme: string; credential: string } | null {
  if (header === undefined) return null;
  const trimmed = header.trim();
  const gap = trimmed.search(/\s/);
  if (gap < 0) return null;
  const credential = trimmed.slice(gap).trimStart();
  return credential === '' ? null : { scheme: trimmed.slice(0, gap), credential };
}

function maskAuthorization(value: string): string {
  const parsed = authorizationCredential(value);
  return parsed ? `${parsed.scheme} ${maskSecret(parsed.credential)}` : maskSecret(value);
}

function maskCookies(value: string): string {
  return value.split(';').map((part) => {
    const eq = part.indexOf('=');
    return eq < 0 ? '***' : `${part.slice(0, eq).trim()}=${maskSecret(part.slice(eq + 1).trim())}`;
  }).join('; ');
}

/** Headers with Authorization, cookies and secret-looking headers masked. */
export function maskHeaders(headers: IncomingMessage['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers)) {
    if (raw === undefined) continue;
    const value = Array.isArray(raw) ? raw.join(', ') : raw;
    if (name === 'authorization' || name === 'proxy-authorization') out[name] = maskAuthorization(value);
    else if (name === 'cookie') out[name] = maskCookies(value);
    else out[name] = SECRET_NAME.test(name) ? maskSecret(value) : value;
  }
  return out;
}

/** Path plus query, with the values of secret-looking query parameters replaced by `***`. */
export function maskPath(url: URL): string {
  if (!url.search) return url.pathname;
  const params = new URLSearchParams(url.search);
  const masked = new URLSearchParams();
  for (const [k, v] of params) masked.append(k, SECRET_NAME.test(k) ? '***' : v);
  return `${url.pathname}?${masked.toString()}`;
}

/** Every request the emulator saw, oldest first, bounded to `max` entries. */
export class RequestLog {
  private entries: RequestLogEntry[] = [];

  private readonly max: number;

  constructor(max: number) {
    this.max = max;
  }

  /** Records a request as it arrives; the returned entry is filled in as the answer is sent. */
  start(req: IncomingMessage, url: URL, endpoint: EndpointName, time: number): RequestLogEntry {
    const callerId = req.headers['caller-id'];
    const auth = authorizationCredential(req.headers.authorization);
    const entry: RequestLogEntry = {
      endpoint,
      method: req.method ?? 'GET',
      path: maskPath(url),
      headers: maskHeaders(req.headers),
      callerId: typeof callerId === 'string' ? callerId : null,
      time,
      status: null,
    };
    if (auth) entry.authFingerprint = fingerprint(auth.credential);
    this.entries.push(entry);
    if (this.entries.length > this.max) this.entries.splice(0, this.entries.length - this.max);
    return entry;
  }

  list(filter: RequestFilter = {}): RequestLogEntry[] {
    return this.entries
      .filter((e) => filter.endpoint === undefined || e.endpoint === filter.endpoint)
      .map((e) => ({ ...e, headers: { ...e.headers } }));
  }

  clear(): void {
    this.entries = [];
  }
}
