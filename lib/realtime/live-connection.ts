import type { PlatformError } from '../errors/index.js';
import type { GameUser } from '../types.js';
import type { ConnectionEnding, Transport } from './types.js';

/** One distinct live token and the connections that hold it. */
export interface TokenGroup {
  readonly key: string;
  readonly token: string;
  readonly source: 'header' | 'cookie';
  readonly memberNo: string;
  readonly connections: Set<LiveConnection>;
  /** Monotonic ms of the last successful verification of this token. */
  lastVerifiedAt: number;
  /**
   * Set when a re-verification refused this token while some of its
   * connections had a refresh in flight: those were spared, and each ends
   * with this error if its refresh fails. Cleared by a later success.
   */
  failure?: PlatformError | undefined;
}

/** How an adapter tells a client and closes its transport; `peer` is the transport's own object. */
export type ConnectionCloser<P = unknown> = (ending: ConnectionEnding, peer: P) => void;

/** A live, authenticated connection as the registry sees it. */
export class LiveConnection {
  /** @internal */ group: TokenGroup | undefined;
  /** @internal */ closer: ConnectionCloser | undefined;
  /** @internal */ peer: unknown;
  /** @internal When the next in-band refresh may start, in ms after `openedAt`; -1 while one is in flight (see RefreshLimit). */
  refreshNotBefore = 0;
  user: GameUser;
  readonly transport: Transport;
  readonly openedAt: number;

  constructor(transport: Transport, user: GameUser, openedAt: number, closer: ConnectionCloser, peer?: unknown) {
    this.transport = transport;
    this.user = user;
    this.openedAt = openedAt;
    this.closer = closer;
    this.peer = peer;
  }

  get memberNo(): string {
    return this.user.memberNo;
  }

  /** SHA-256 digest of the current token (never the token). */
  get tokenKey(): string | undefined {
    return this.group?.key;
  }

  /** Monotonic ms of the current token's last successful verification. */
  get lastVerifiedAt(): number | undefined {
    return this.group?.lastVerifiedAt;
  }

  get open(): boolean {
    return this.closer !== undefined;
  }
}
