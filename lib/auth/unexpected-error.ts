import { PlatformError, isPlatformError } from '../errors/index.js';
import type { Logger } from '../types.js';

/**
 * Turns anything thrown by a hook or the verifier into a `PlatformError`.
 * A `PlatformError` passes through; anything else becomes a 500 whose message
 * is generic, and is logged here with its name, message and stack only (never
 * `util.inspect`: an HTTP client's error can print its request headers).
 */
export function toPlatformError(err: unknown, stage: string, logger: Logger): PlatformError {
  if (isPlatformError(err)) return err;
  logger.error({ stage, ...describeThrown(err) }, `passport-game-platform: ${stage} threw an unexpected error`);
  return new PlatformError({ kind: 'configuration', message: `The ${stage} failed unexpectedly; see the server log.` });
}

function read(get: () => unknown): string | undefined {
  try {
    const value = get();
    return value === undefined ? undefined : String(value);
  } catch {
    return '(unreadable)';
  }
}

/**
 * Name, message and stack of anything thrown, for a log line. Reading them
 * never throws (an application's error may have throwing getters or a
 * `toString` that throws).
 */
export function describeThrown(err: unknown): { errorName: string | undefined; errorMessage: string | undefined; stack: string | undefined } {
  if (err instanceof Error) {
    return { errorName: read(() => err.name), errorMessage: read(() => err.message), stack: read(() => err.stack) };
  }
  return { errorName: typeof err, errorMessage: read(() => err), stack: undefined };
}
