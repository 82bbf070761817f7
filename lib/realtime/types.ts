import type { ClientAction } from '../errors/index.js';
import type { ProblemBody } from '../problem/problem.js';
import type { GameUser } from '../types.js';

/** The transport a live connection came in on. */
export type Transport = 'ws' | 'socket.io' | 'colyseus';

/**
 * Why the server ends a connection on purpose (`session:ended`): the
 * player's token was revoked (`logout`), an administrator or a ban ended the
 * member's sessions (`admin`), the server is shutting down (`shutdown`).
 */
export type SessionEndReason = 'logout' | 'admin' | 'shutdown';

/**
 * What an adapter must tell the client before closing:
 * - `expired`: the token stopped being good enough (`auth:expired` with the
 *   action and code, e.g. `relogin`/40000, `register_device`/46217,
 *   `retry_later` after the outage grace, `login` for another member's refresh);
 * - `ended`: the server decided (`session:ended` with the reason).
 */
export type ConnectionEnding =
  | { kind: 'expired'; action: ClientAction; code?: number | undefined; problem: ProblemBody }
  | { kind: 'ended'; reason: SessionEndReason };

/** What an adapter registers when a connection is authenticated. */
export interface ConnectionInit<P = unknown> {
  transport: Transport;
  user: GameUser;
  /** The token the connection authenticated with (kept only while it lives, for re-verification). */
  token: string;
  /**
   * The registry's `now()` when the handshake's verification began: a member
   * end from then on ends the connection as soon as it is registered.
   * Without it only token ends (revocations) made meanwhile are caught.
   */
  since?: number | undefined;
  /** `'cookie'` tokens are web tokens, verified as such. Default `'header'`. */
  source?: 'header' | 'cookie' | undefined;
  /** Tells the client and closes the transport; called at most once, with `peer`. */
  close(ending: ConnectionEnding, peer: P): void;
  /**
   * The transport's own object (socket, client), handed back to `close`, so
   * one `close` function serves every connection. Released when the connection ends.
   */
  peer?: P | undefined;
}

/** A `session-end` event of the platform client (a revocation or a member disconnect, local or from another instance). */
export type SessionEndEvent =
  | { kind: 'token'; tokenKey: string; reason: SessionEndReason }
  | { kind: 'member'; memberNo: string; reason: SessionEndReason };
