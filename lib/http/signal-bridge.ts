import { CALLER_GONE } from './aborted.js';
import type { Abortable } from './deadline-signal.js';

/** Verifiers that take any {@link Abortable} as their signal (the package's own client). */
const takers = new WeakSet<object>();

/** Marks `verifier` as taking any {@link Abortable}, not only an `AbortSignal`. */
export function takesAbortable(verifier: object): void {
  takers.add(verifier);
}

/** True when `verifier` was marked by {@link takesAbortable}. */
export function acceptsAbortable(verifier: object): boolean {
  return takers.has(verifier);
}

/**
 * An `AbortSignal` that aborts with `signal` (the signal itself when it is
 * one), for a verifier of the application's own, which may hand it to
 * `fetch` or to any other API that needs a real one. Its reason is
 * `CALLER_GONE`: no DOMException (and its stack) per hang-up.
 */
export function asAbortSignal(signal: Abortable): AbortSignal {
  if (signal instanceof AbortSignal) return signal;
  const aborter = new AbortController();
  if (signal.aborted) aborter.abort(CALLER_GONE);
  else signal.addEventListener('abort', () => aborter.abort(CALLER_GONE), { once: true });
  return aborter.signal;
}
