import { isTransientCode } from './platform-body.js';
import { BadBody } from './platform-body.js';

// What is retried, stated explicitly: a generic retry library's defaults would
// retry a POST on a network error but never on a 5xx.

/** How an attempt that produced no HTTP response failed. */
export type NoResponseFault = 'timeout' | 'network' | 'bad_body' | 'canceled' | 'fatal';

// The codes the transport and Node's own HTTP client produce; anything else
// without a response is a network fault.
const TIMEOUT_CODES = new Set(['ETIMEDOUT']);
const FATAL_CODES = new Set(['ERR_BAD_REQUEST', 'ERR_INVALID_URL', 'ERR_INVALID_CHAR', 'ERR_HTTP_INVALID_HEADER_VALUE']);

export function classifyNoResponse(code: string | undefined): NoResponseFault {
  if (code === 'ERR_CANCELED') return 'canceled';
  if (code !== undefined && TIMEOUT_CODES.has(code)) return 'timeout';
  if (code === 'ERR_BAD_RESPONSE') return 'bad_body';
  if (code !== undefined && FATAL_CODES.has(code)) return 'fatal';
  return 'network';
}

/**
 * True when a response is worth another attempt: the platform's transient
 * code 50000, or a body that is not the platform's JSON with a 5xx, a 429 or
 * a 2xx status. A JSON body with any other code decides, whatever the status.
 */
export function isRetryableResponse(status: number, data: unknown): boolean {
  if (data instanceof BadBody) return status >= 500 || status === 429 || status < 300;
  return typeof data === 'object' && data !== null && 'code' in data && typeof data.code === 'number' && isTransientCode(data.code);
}

/** Full jitter: a random delay in [0, min(max, base * 2^(retry-1))). */
export function fullJitterDelay(retry: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, retry - 1));
  return Math.floor(random() * ceiling);
}

/** `Retry-After` (seconds or an HTTP date) in ms, capped; 0 when absent or unreadable. */
export function retryAfterMs(header: unknown, capMs: number, nowMs: number = Date.now()): number {
  if (typeof header !== 'string' || header.trim() === '') return 0;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - nowMs;
  if (!Number.isFinite(ms) || ms <= 0) return 0;
  return Math.min(ms, capMs);
}

/**
 * Whether an answer that is not the platform's JSON counts against the
 * circuit breaker: 5xx, 408 and 429 do (and 2xx/3xx garbage: the platform is
 * broken); any other 4xx does not, since an edge in front of the platform
 * (a firewall refusing a token that looks like an injection) answers it for
 * one request, and attacker tokens must never open the circuit for everyone.
 */
export function countsAsPlatformFailure(status: number): boolean {
  return status >= 500 || status === 408 || status === 429 || status < 400;
}
