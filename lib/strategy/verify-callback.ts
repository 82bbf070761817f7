import type { Request } from 'express';
import type { GameUser } from '../types.js';

/** Passport's `done`: `done(null, user)` accepts, `done(null, false)` denies (403), `done(err)` fails. */
export type VerifiedCallback = (err: unknown, user?: Express.User | false, info?: object) => void;

/** An app-level last step after the platform verified the token. */
export type VerifyCallback = (user: GameUser, done: VerifiedCallback) => void;

/** {@link VerifyCallback} with the request first (`passReqToCallback: true`). */
export type VerifyCallbackWithRequest = (req: Request, user: GameUser, done: VerifiedCallback) => void;

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Outcome of a verify callback: the user to accept, or `false` to deny. */
export interface VerifyOutcome {
  user: Express.User | false;
  info: object | undefined;
}

/**
 * Calls a passport-style verify callback once and turns it into a promise.
 * A second `done` call is ignored; a synchronous throw rejects, and so does
 * a returned promise that rejects (an `async` verify), so the request always
 * ends (a callback that never calls `done` would leave it hanging).
 */
export function runVerifyCallback(
  verify: VerifyCallback | VerifyCallbackWithRequest,
  passReqToCallback: boolean,
  req: Request,
  user: GameUser,
): Promise<VerifyOutcome> {
  return new Promise((resolve, reject) => {
    let called = false;
    const done: VerifiedCallback = (err, result, info) => {
      if (called) return;
      called = true;
      if (err !== null && err !== undefined) reject(err);
      else if (result === false || result === null || result === undefined) resolve({ user: false, info });
      // Only an object is a user: `done(null, 0)` is a programming error, never a success.
      else if (typeof result !== 'object') reject(new TypeError(`the verify callback passed a ${typeof result} as the user`));
      else resolve({ user: result, info });
    };
    const returned: unknown = passReqToCallback
      ? (verify as VerifyCallbackWithRequest)(req, user, done)
      : (verify as VerifyCallback)(user, done);
    if (isThenable(returned)) returned.then(undefined, (err: unknown) => done(err ?? new Error('verify callback rejected')));
  });
}
