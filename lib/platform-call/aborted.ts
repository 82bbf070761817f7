import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';

// Nobody reads the error of a call whose caller has gone: one shared, frozen
// instance per endpoint, so that a flood of hung-up requests costs no stack
// traces (building errors was most of the cost of dropping 1,000 of them).
const shared = new Map<PlatformEndpoint, PlatformError>();

/** The 503 a call ends with when its caller went away (never seen by anyone). */
export function abortedError(endpoint: PlatformEndpoint): PlatformError {
  const known = shared.get(endpoint);
  if (known !== undefined) return known;
  const error = errorForTransportFault('aborted', endpoint);
  Object.freeze(error);
  shared.set(endpoint, error);
  return error;
}

/** True for the error of a call given up by its caller. */
export function isAbortedError(error: unknown): boolean {
  for (const known of shared.values()) if (known === error) return true;
  return false;
}

/** Passed to `AbortController.abort()` so that no DOMException (and its stack) is built. */
export const CALLER_GONE = Object.freeze({ reason: 'the caller went away' });
