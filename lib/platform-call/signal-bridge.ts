import { CALLER_GONE } from './aborted.js';
import type { Abortable } from './deadline-signal.js';

/** Verifiers that take any {@link Abortable} as their signal (the package's own client). */
const takers = new WeakSet<object>();

/** Marks `verifier` as taking any {@link Abortable}, not only an `AbortSignal`. */
export function takesAbortable(verifier: object): void {
  takers.add(verifier);
}

/**
 * True when `verifier` was marked by {@link takesAbortable} and still has its
 * class's own verify methods (none replaced on the instance).
 */
export function acceptsAbortable(verifier: object): boolean {
  return takers.has(verifier) && !Object.hasOwn(verifier, 'verifyUserToken') && !Object.hasOwn(verifier, 'verifyWebToken');
}

/** An `AbortSignal` that follows a light signal, and how to stop following it. */
export interface SignalBridge {
  readonly signal: AbortSignal;
  /** Stops following (call it once the verification settled): nothing stays on a long-lived signal. */
  release(): void;
}

/**
 * An `AbortSignal` that aborts with `signal`, for a verifier of the
 * application's own, which may hand it to `fetch` or to any other API that
 * needs a real one. Its reason is `CALLER_GONE`: no DOMException (and its
 * stack) per hang-up.
 */
export function bridgeSignal(signal: Abortable): SignalBridge {
  const aborter = new AbortController();
  if (signal.aborted) {
    aborter.abort(CALLER_GONE);
    return { signal: aborter.signal, release: () => {} };
  }
  const onAbort = (): void => aborter.abort(CALLER_GONE);
  signal.addEventListener('abort', onAbort, { once: true });
  return { signal: aborter.signal, release: () => signal.removeEventListener('abort', onAbort) };
}
