import type { ApiTokenStateMessage } from '../diagnostics/channels.js';
import type { TokenEvent } from './provider-types.js';

/** The provider's `'token'` event from an `api-token-state` message; `undefined` for a message with no event (`dropped`). */
export function tokenEventOf(message: ApiTokenStateMessage): TokenEvent | undefined {
  const { type, apiTokenFingerprint, expiresAt, durationMs, code, kind } = message;
  if (type === undefined) return undefined;
  return {
    type,
    ...(apiTokenFingerprint === undefined ? {} : { fingerprint: apiTokenFingerprint }),
    ...(expiresAt === undefined ? {} : { expiresAt }),
    durationMs: durationMs ?? 0,
    ...(code === undefined ? {} : { code }),
    ...(kind === undefined ? {} : { kind }),
  };
}
