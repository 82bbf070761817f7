import type { Client } from '@colyseus/core';
import { PlatformError, shuttingDown } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import { closeFrameFor, type ConnectionEnding, type SessionEndReason } from '../realtime/index.js';

// WebSocket readyState OPEN.
const OPEN = 1;

/** True while the client's WebSocket is open (false once it closed, even if its close event has passed). */
export function isOpen(client: Client): boolean {
  return (client.ref as unknown as { readyState?: number }).readyState === OPEN;
}

/** Thrown when a session ended (`'session-end'`) while the client's token was being verified. */
export class SessionEndedMeanwhile extends Error {
  readonly reason: SessionEndReason;
  constructor(reason: SessionEndReason) {
    super(`The session ended (${reason}) while its token was being verified.`);
    this.reason = reason;
  }
}

/** The refusal of a join whose session ended while its token was being verified: 4401 relogin (logout), 4403 denied (admin), 1013 (shutdown). */
export function endedError(reason: SessionEndReason): PlatformError {
  if (reason === 'shutdown') return shuttingDown();
  if (reason === 'admin') return new PlatformError({ kind: 'access_denied', message: "The member's sessions were ended (admin) while this join was being verified." });
  return new PlatformError({ kind: 'invalid_token', message: 'The token was revoked (logout) while this join was being verified: log in again.' });
}

/** What to tell a joined client that may not stay: `session:ended` for a session end, else `auth:expired` with the error's action. */
export function endingFor(err: unknown): ConnectionEnding {
  if (err instanceof SessionEndedMeanwhile) return { kind: 'ended', reason: err.reason };
  const { body } = problemResponse(err);
  return { kind: 'expired', action: body.action, code: body.code, problem: body };
}

/** Tells a joined client why it must go (a room message), then closes it with the matching code. */
export function closerFor(client: Client): (ending: ConnectionEnding) => void {
  return (ending) => {
    if (ending.kind === 'expired') client.send('auth:expired', { action: ending.action, ...(ending.code === undefined ? {} : { code: ending.code }) });
    else client.send('session:ended', { reason: ending.reason });
    // A client that has not acknowledged its join yet gets messages queued
    // until it does; send them now, or the close frame would overtake them.
    const queued = (client as unknown as { _enqueuedMessages?: unknown[] })._enqueuedMessages;
    if (queued !== undefined && queued.length > 0) {
      for (const data of queued.splice(0)) client.raw(data as Buffer);
    }
    client.leave(closeFrameFor(ending).code, ending.kind === 'expired' ? ending.action : ending.reason);
  };
}
