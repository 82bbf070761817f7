import { PlatformError, isPlatformError } from '../errors/index.js';
import type { Logger } from '../types.js';

/**
 * Turns anything thrown by a hook or the verifier into a `PlatformError`.
 * A `PlatformError` passes through; anything else becomes a 500 whose message
 * is generic, and is logged here with its name, message and stack only (never
 * `util.inspect`: an axios error would print its request headers).
 */
export function toPlatformError(err: unknown, stage: string, logger: Logger): PlatformError {
  if (isPlatformError(err)) return err;
  const name = err instanceof Error ? err.name : typeof err;
  const message = err instanceof Error ? err.message : String(err);
  const stack = err instanceof Error ? err.stack : undefined;
  logger.error({ stage, errorName: name, errorMessage: message, stack }, `passport-game-platform: ${stage} threw an unexpected error`);
  return new PlatformError({ kind: 'configuration', message: `The ${stage} failed unexpectedly; see the server log.` });
}
