import { PlatformError } from '../errors/index.js';

/** What an `authorize` hook may say when it denies a player. */
export interface AccessDeniedInit {
  /** The app's own code, sent as the problem body's `code` (e.g. a sanction code). */
  code?: number;
  /** Sent to the client as the problem `detail`: keep it free of secrets. */
  detail?: string;
}

/**
 * A 403 `access_denied` (`action: 'denied'`) for an `authorize` hook to throw,
 * for instance after the game's own sanction check.
 *
 * @example
 * ```ts
 * authorize: async (user) => {
 *   if (await sanctions.isBanned(user.memberNo)) throw accessDenied({ code: 9001, detail: 'Account suspended.' });
 * }
 * ```
 */
export function accessDenied(init: AccessDeniedInit = {}): PlatformError {
  return new PlatformError({
    kind: 'access_denied',
    message: init.detail ?? 'The game does not allow this player here.',
    ...(init.code === undefined ? {} : { code: init.code }),
  });
}
