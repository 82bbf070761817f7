import type { PlatformError } from '../errors/index.js';

interface Failure {
  error: PlatformError;
  realm: string;
}

const failures = new WeakMap<object, Failure>();

/** Remembers why authentication of `req` failed (the strategy calls it). */
export function recordFailure(req: object, error: PlatformError, realm: string): void {
  failures.set(req, { error, realm });
}

/**
 * The structured error behind a failed authentication of `req`, if any. Passport
 * only passes a status to `failWithError`; the error handler finds the full
 * error (kind, code, action) here.
 */
export function failureFor(req: object): PlatformError | undefined {
  return failures.get(req)?.error;
}

/** The realm the failing strategy used for `req`'s challenge. */
export function failureRealmFor(req: object): string | undefined {
  return failures.get(req)?.realm;
}
