import { errorForTransportFault, isPlatformError, notAnOutage } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { classifyNoResponse } from './retry-policy.js';

function safeCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  const { code } = error;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/**
 * The one boundary where a low-level failure (a socket error, a timeout, a malformed reply)
 * becomes a PlatformError. Only a short error code is copied; the original
 * error (which holds the request config, headers and body, hence the API token
 * and the client secret) is dropped: no `cause`, no reference to it.
 */
export function faultFromError(error: unknown, endpoint: PlatformEndpoint, budgetSpent: boolean, budgetMs: number): PlatformError {
  if (isPlatformError(error)) return error;
  const code = safeCode(error);
  const kind = classifyNoResponse(code);
  if (budgetSpent || kind === 'canceled') {
    return errorForTransportFault('timeout', endpoint, `no answer within the ${budgetMs} ms budget`);
  }
  if (kind === 'timeout') return errorForTransportFault('timeout', endpoint, code);
  if (kind === 'bad_body') return errorForTransportFault('bad_body', endpoint, 'response too large or unreadable');
  return errorForTransportFault('network', endpoint, code);
}

/**
 * A response whose body is not the platform's JSON. A 5xx is the platform out
 * of service; a 3xx or 4xx page (an edge refusing or redirecting) is a 503
 * all the same, but not an outage the grace may ride out.
 */
export function faultFromBadBody(status: number, reason: string, endpoint: PlatformEndpoint): PlatformError {
  if (status >= 500) return errorForTransportFault('http_status', endpoint, `HTTP ${status}`);
  if (status >= 300) return notAnOutage(errorForTransportFault('http_status', endpoint, `HTTP ${status}`));
  return errorForTransportFault('bad_body', endpoint, reason);
}
