import type { PlatformError } from '../errors/index.js';

// passport's `failWithError` hands the error handler an AuthenticationError
// that holds a status and nothing else, and its multi-strategy chain needs
// fail() rather than error(); so the strategy leaves the structured error on
// the request it failed, for `platformErrorHandler` to render (code, action,
// challenge). Only this passport route uses it: `requireGameUser` and the
// other adapters get the PlatformError itself.
const FAILURE = Symbol.for('passport-game-platform.passport-failure');

interface WithFailure {
  [FAILURE]?: PlatformError;
}

/** Leaves `error` on `req` for the error handler (see above). */
export function rememberPassportFailure(req: object, error: PlatformError): void {
  (req as WithFailure)[FAILURE] = error;
}

/** The error our strategy failed `req` with, if any. */
export function passportFailureOf(req: object): PlatformError | undefined {
  return (req as WithFailure)[FAILURE];
}
