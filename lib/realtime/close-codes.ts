import type { ClientAction } from '../errors/index.js';
import type { ConnectionEnding } from './types.js';

/** WebSocket close codes of the package (the close reason is the action or the end reason). */
export const WS_CLOSE = {
  /** `login` / `relogin`: get a new token, then reconnect. */
  UNAUTHORIZED: 4401,
  /** `register_device` / `denied`: reconnecting with the same token will not help. */
  FORBIDDEN: 4403,
  /** `retry_later`: the platform is unavailable; reconnect after a while. */
  TRY_AGAIN_LATER: 1013,
  /** `contact_support`: the server's own configuration is wrong. */
  INTERNAL_ERROR: 1011,
  /** Server shutdown: reconnect (to another instance). */
  GOING_AWAY: 1001,
  /**
   * The client broke a bound: `too_many_messages` or `too_many_bytes` while its
   * first-message authentication was pending, `send_buffer_full` when it stopped
   * reading what we queued for it while it kept sending.
   */
  POLICY_VIOLATION: 1008,
} as const;

/** The close code for a client action. */
export function closeCodeFor(action: ClientAction): number {
  switch (action) {
    case 'login':
    case 'relogin':
      return WS_CLOSE.UNAUTHORIZED;
    case 'register_device':
    case 'denied':
      return WS_CLOSE.FORBIDDEN;
    case 'retry_later':
      return WS_CLOSE.TRY_AGAIN_LATER;
    default:
      return WS_CLOSE.INTERNAL_ERROR;
  }
}

/** Close code and reason of an ending: `logout` 4401, `admin` 4403, `shutdown` 1001. */
export function closeFrameFor(ending: ConnectionEnding): { code: number; reason: string } {
  if (ending.kind === 'expired') return { code: closeCodeFor(ending.action), reason: ending.action };
  const code = ending.reason === 'shutdown' ? WS_CLOSE.GOING_AWAY : ending.reason === 'logout' ? WS_CLOSE.UNAUTHORIZED : WS_CLOSE.FORBIDDEN;
  return { code, reason: ending.reason };
}
