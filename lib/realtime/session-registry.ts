import { performance } from 'node:perf_hooks';
import type { Authenticator } from '../auth/authenticate.js';
import { tokenKey as digestOf } from '../hashing/fingerprint.js';
import { connectionChannel, type ConnectionMessage, type SessionEndCause } from '../diagnostics/channels.js';
import { PlatformError, shuttingDown } from '../errors/index.js';
import { problemResponse } from '../problem/problem-response.js';
import type { GameUser } from '../types.js';
import { LiveConnection, type ConnectionCloser, type TokenGroup } from './live-connection.js';
import { MemberIndex } from './member-index.js';
import { integerOption } from '../config/validate.js';
import { DEFAULT_MIN_REFRESH_INTERVAL_MS, RefreshLimit } from './refresh-limit.js';
import { RecentEnds } from './recent-ends.js';
import { Reverifier, type ReverifyOptions } from './reverifier.js';
import type { ConnectionEnding, ConnectionInit, SessionEndEvent, SessionEndReason } from './types.js';

export { LiveConnection, type ConnectionCloser, type TokenGroup } from './live-connection.js';

/** Outcome of an in-band refresh. */
export type RefreshResult =
  | { ok: true; user: GameUser }
  | { ok: false; error: PlatformError; ended: boolean };

/** Options of {@link SessionRegistry}. */
export interface SessionRegistryOptions extends ReverifyOptions {
  /** The core authenticator: in-band refreshes and re-verification go through it (and its client's limits and cache). */
  authenticate: Authenticator<object, never>;
  /**
   * The platform client (or any emitter of `'session-end'` events): revocations
   * and member disconnects, local or from other instances, end connections here.
   */
  events?: { on(event: 'session-end', listener: (event: SessionEndEvent) => void): unknown; off?(event: 'session-end', listener: (event: SessionEndEvent) => void): unknown } | undefined;
  /**
   * Shortest time between two in-band refreshes of one connection, in ms;
   * one refresh at a time in any case. A refresh sooner than that is refused
   * at once (429 `retry_later`) without a platform call. Default 1000; `0`
   * keeps only the one-at-a-time rule.
   */
  minRefreshIntervalMs?: number | undefined;
  /** Monotonic clock in ms; default `performance.now`. Tests pass the emulator's clock. */
  now?: (() => number) | undefined;
}

// Why this instance ended a connection, for the `connection` channel: the reason it gave, or what the ending tells.
function causeOf(ending: ConnectionEnding): SessionEndCause {
  if (ending.kind === 'ended') return ending.reason;
  return ending.action === 'retry_later' || ending.action === 'contact_support' ? 'expired' : 'refused';
}

function endingProblem(error: PlatformError): ConnectionEnding {
  const { body } = problemResponse(error);
  return { kind: 'expired', action: body.action, code: body.code, problem: body };
}

// Connections on one token carry equal identifiers: keep one copy of each string, not one per connection.
function shareIds(user: GameUser, like: GameUser): void {
  if (user === like) return;
  // Reflect.set: a frozen user keeps its own strings instead of throwing.
  if (user.memberNo === like.memberNo) Reflect.set(user, 'memberNo', like.memberNo);
  if (user.guid === like.guid) Reflect.set(user, 'guid', like.guid);
}

/**
 * The live connections of one process, shared by the `ws`, Socket.IO and
 * Colyseus adapters: each connection's member, current token digest and last
 * successful verification, found by member or by token digest in O(1).
 * A connection is forgotten (token included) as soon as it closes.
 *
 * It re-verifies every distinct live token, each at most one interval after
 * its last verification began, spread over the interval (see
 * {@link Reverifier}), handles in-band refreshes, and ends
 * connections on purpose: by member (`admin`), by token (`logout`), all of
 * them on shutdown.
 *
 * @example
 * ```ts
 * const registry = new SessionRegistry({ authenticate, events: client, reverifyIntervalMs: 300_000 });
 * registry.endMember('20005061986', 'admin');
 * ```
 */
export class SessionRegistry {
  readonly #groups = new Map<string, TokenGroup>();
  readonly #members = new MemberIndex();
  readonly #authenticate: Authenticator<object, never>;
  readonly #events: SessionRegistryOptions['events'];
  readonly #onSessionEnd = (event: SessionEndEvent): void => {
    if (event?.kind !== 'token' && event?.kind !== 'member') return;
    // Handshakes still being verified register later: they check these.
    this.#recentEnds.note(event);
    if (event.kind === 'token') this.endToken(event.tokenKey, event.reason);
    else this.endMember(event.memberNo, event.reason);
  };
  readonly #recentEnds: RecentEnds;
  readonly now: () => number;
  readonly reverifier: Reverifier;
  readonly #refreshLimit: RefreshLimit;
  readonly #shutdownListeners = new Set<() => void>();
  #size = 0;
  #closed = false;

  constructor(options: SessionRegistryOptions) {
    if (options === null || typeof options !== 'object') throw new TypeError('SessionRegistry: options must be an object');
    if (typeof options.authenticate?.token !== 'function') {
      throw new TypeError('SessionRegistry: authenticate must be an authenticator from createAuthenticator (with a .token method)');
    }
    this.#authenticate = options.authenticate;
    this.now = options.now ?? (() => performance.now());
    this.#recentEnds = new RecentEnds(this.now);
    this.#refreshLimit = new RefreshLimit(integerOption(options.minRefreshIntervalMs, 'SessionRegistry', 'minRefreshIntervalMs', 'ms', 0, DEFAULT_MIN_REFRESH_INTERVAL_MS));
    this.reverifier = new Reverifier(this, options);
    this.#events = options.events;
    this.#events?.on('session-end', this.#onSessionEnd);
  }

  /** Live connections. */
  get size(): number {
    return this.#size;
  }

  /** True once `closeAll('shutdown')` began: new connections are refused. */
  get closing(): boolean {
    return this.#closed;
  }

  /**
   * Calls `listener` when `closeAll('shutdown')` begins (at once when it
   * already has): adapters end their handshakes in progress there. Returns
   * the function that removes the listener.
   */
  onShutdown(listener: () => void): () => void {
    if (this.#closed) {
      listener();
      return () => undefined;
    }
    this.#shutdownListeners.add(listener);
    return () => void this.#shutdownListeners.delete(listener);
  }

  /** Distinct live tokens. */
  get tokenCount(): number {
    return this.#groups.size;
  }

  /**
   * Registers an authenticated connection; starts re-verification with the
   * first one. A connection whose session ended while its handshake was being
   * verified (a `'session-end'` event for its token, or for its member at or
   * after `init.since`) is ended at once (`session:ended` with that reason):
   * the returned connection is then no longer `open`, and the adapter must
   * not announce it.
   */
  add<P>(init: ConnectionInit<P>): LiveConnection {
    if (this.#closed) throw shuttingDown();
    const now = this.now();
    const connection = new LiveConnection(init.transport, init.user, now, init.close as ConnectionCloser, init.peer);
    this.#attach(connection, init.token, init.source ?? 'header', now);
    this.#size += 1;
    this.reverifier.start();
    const ended = this.#recentEnds.endedReason(connection.group!.key, connection.memberNo, init.since);
    if (ended !== undefined) this.end(connection, { kind: 'ended', reason: ended });
    return connection;
  }

  /**
   * Why a connection not registered yet must not be: its token was ended by
   * a `'session-end'` event in the last minute, or its member at or after
   * `since` (the registry's `now()` when its handshake began). For adapters
   * that refuse instead of registering (Colyseus `onAuth`).
   */
  endedSince(token: string, memberNo: string, since: number | undefined): SessionEndReason | undefined {
    return this.#recentEnds.endedReason(digestOf(token), memberNo, since);
  }

  /**
   * Forgets a closed connection (idempotent). Adapters call it from the
   * transport's close event, with `'bound'` when they closed it for breaking
   * a byte bound.
   */
  remove(connection: LiveConnection, reason = 'closed', cause: SessionEndCause | undefined = reason === 'bound' ? 'bound' : undefined): void {
    if (connection.closer === undefined && connection.group === undefined) return;
    connection.closer = undefined;
    connection.peer = undefined;
    this.#detach(connection);
    this.#size -= 1;
    if (this.#size === 0) this.reverifier.stop();
    if (connectionChannel.hasSubscribers) {
      const message: ConnectionMessage = { transport: connection.transport, memberNo: connection.memberNo, reason, durationMs: this.now() - connection.openedAt };
      if (cause !== undefined) message.ended = cause;
      connectionChannel.publish(message);
    }
  }

  /** The member's live connections. */
  byMember(memberNo: string): LiveConnection[] {
    return this.#members.connections(memberNo);
  }

  /** The live connections holding the token with this digest (`tokenKey(token)`). */
  byTokenKey(key: string): LiveConnection[] {
    return [...(this.#groups.get(key)?.connections ?? [])];
  }

  /** The distinct live tokens (for the re-verifier). */
  groups(): TokenGroup[] {
    return [...this.#groups.values()];
  }

  /** @internal */ group(key: string): TokenGroup | undefined {
    return this.#groups.get(key);
  }

  /** Ends a member's connections everywhere in this process (`session:ended`); returns how many. */
  endMember(memberNo: string, reason: SessionEndReason): number {
    return this.#endAll(this.byMember(memberNo), { kind: 'ended', reason });
  }

  /** Ends the connections holding a token, by digest (`session:ended`); returns how many. */
  endToken(key: string, reason: SessionEndReason): number {
    return this.#endAll(this.byTokenKey(key), { kind: 'ended', reason });
  }

  /**
   * Ends every connection (`session:ended` `shutdown`, `ws` 1001) and refuses
   * new ones; on `shutdown` the adapters' handshakes in progress end too
   * (see {@link SessionRegistry.onShutdown}). Returns how many live connections ended.
   */
  closeAll(reason: SessionEndReason = 'shutdown'): number {
    if (reason === 'shutdown') this.#closed = true;
    this.reverifier.stop();
    const all = [...this.#groups.values()].flatMap((group) => [...group.connections]);
    const count = this.#endAll(all, { kind: 'ended', reason });
    if (reason === 'shutdown') {
      this.#events?.off?.('session-end', this.#onSessionEnd);
      const listeners = [...this.#shutdownListeners];
      this.#shutdownListeners.clear();
      for (const listener of listeners) listener();
    }
    return count;
  }

  /** Ends one connection with what the client must be told (and, for the figures, why: by default what the ending tells). */
  end(connection: LiveConnection, ending: ConnectionEnding, cause: SessionEndCause = causeOf(ending)): void {
    const { closer, peer } = connection;
    if (closer === undefined) return;
    this.remove(connection, ending.kind === 'ended' ? ending.reason : ending.action, cause);
    try {
      closer(ending, peer);
    } catch {
      // A transport that fails while closing is closed enough.
    }
  }

  /**
   * Ends every connection of a token group with an error's action
   * (re-verification). A connection with a refresh in flight is spared: the
   * refresh decides (success moves it to its new token; failure ends it with
   * this error then). `cause` says why, for the figures. Returns how many ended now.
   */
  endGroup(group: TokenGroup, error: PlatformError, cause?: SessionEndCause): number {
    const now: LiveConnection[] = [];
    for (const connection of group.connections) {
      if (this.#refreshLimit.inFlight(connection)) group.failure = error;
      else now.push(connection);
    }
    return this.#endAll(now, endingProblem(error), cause);
  }

  /**
   * In-band refresh: verifies `token` and moves the connection onto it. The
   * new token must belong to the same member; another member's token ends the
   * connection (`login`). A refused token leaves the connection on its
   * current token (re-verification decides about that one), unless a
   * re-verification refused that token while the refresh was in flight:
   * the connection then ends with that refusal (`auth:expired`). A connection
   * refreshes one at a time and at most once per `minRefreshIntervalMs`;
   * beyond that the refresh is refused at once (429 `retry_later`).
   */
  async refresh(connection: LiveConnection, token: unknown, source: 'header' | 'cookie' = 'header'): Promise<RefreshResult> {
    if (typeof token !== 'string') {
      return { ok: false, error: new PlatformError({ kind: 'invalid_request', message: 'auth:refresh needs a "token" string.' }), ended: false };
    }
    const startedAt = this.now();
    const limited = this.#refreshLimit.begin(connection, startedAt);
    if (limited !== undefined) return { ok: false, error: limited, ended: false };
    let user: GameUser;
    try {
      user = await this.#authenticate.token(token, { source });
    } catch (err) {
      const error = err instanceof PlatformError ? err : new PlatformError({ kind: 'configuration', message: 'The refresh failed on the server.' });
      // A re-verification refused the old token meanwhile and spared this connection for the refresh: end it now.
      const failure = connection.group?.failure;
      if (failure === undefined || !connection.open) return { ok: false, error, ended: false };
      this.end(connection, endingProblem(failure));
      return { ok: false, error: failure, ended: true };
    } finally {
      this.#refreshLimit.end(connection, startedAt);
    }
    if (!connection.open) return { ok: false, error: new PlatformError({ kind: 'missing_credentials', message: 'The connection is closed.' }), ended: true };
    if (user.memberNo !== connection.memberNo) {
      const error = new PlatformError({ kind: 'missing_credentials', message: 'The new token belongs to another member: log in again.' });
      this.end(connection, endingProblem(error));
      return { ok: false, error, ended: true };
    }
    this.#detach(connection);
    // The new answer says whether it came from the outage grace; an earlier one's mark does not stay.
    const { servedInGrace: _earlier, ...kept } = connection.user;
    connection.user = { ...kept, ...user };
    this.#attach(connection, token, source, this.now());
    return { ok: true, user: connection.user };
  }

  #attach(connection: LiveConnection, token: string, source: 'header' | 'cookie', verifiedAt: number): void {
    const key = digestOf(token);
    let group = this.#groups.get(key);
    if (group === undefined) {
      group = { key, token, source, memberNo: connection.memberNo, connections: new Set(), lastVerifiedAt: verifiedAt };
      this.#groups.set(key, group);
      this.#members.add(group);
      this.reverifier.track(group);
    } else {
      // An answer from the outage grace is no verification: the token's own clock runs on.
      if (connection.user.servedInGrace !== true) {
        if (verifiedAt > group.lastVerifiedAt) group.lastVerifiedAt = verifiedAt;
        group.failure = undefined; // just verified: good again
      }
      const [other] = group.connections;
      if (other !== undefined) shareIds(connection.user, other.user);
    }
    group.connections.add(connection);
    connection.group = group;
  }

  #detach(connection: LiveConnection): void {
    const group = connection.group;
    if (group === undefined) return;
    connection.group = undefined;
    if (group.connections.delete(connection) && group.connections.size === 0) {
      this.#groups.delete(group.key);
      this.#members.delete(group);
      this.reverifier.forget(group);
    }
  }

  #endAll(connections: LiveConnection[], ending: ConnectionEnding, cause?: SessionEndCause): number {
    for (const connection of connections) this.end(connection, ending, cause);
    return connections.length;
  }
}
