import { isPlatformError } from '../../lib/errors/index.js';
import type { ErrorKind, PlatformError } from '../../lib/errors/index.js';

/**
 * Asserts a failure is one of ours and carries nothing of the low-level error:
 * no cause, config, request or response (they would carry secrets into logs), and a status of
 * ours (a platform status passed on would reach the player without our challenge).
 */
export function expectPlatformError(error: unknown, kind: ErrorKind, status?: number): PlatformError {
  expect(isPlatformError(error)).toBe(true);
  const e = error as PlatformError;
  expect({ kind: e.kind, ...(status === undefined ? {} : { status: e.status }) }).toEqual({ kind, ...(status === undefined ? {} : { status }) });
  for (const name of ['cause', 'config', 'request', 'response', 'toJSON']) {
    expect(Object.hasOwn(e, name)).toBe(false);
  }
  expect(e.cause).toBeUndefined();
  return e;
}
