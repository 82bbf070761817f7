import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { checkTokenSyntax, DEFAULT_RETRY_AFTER_SECONDS, errorForPlatformCode, errorForTransportFault, isPlatformError, PlatformCode, PlatformError } from '../errors/index.js';
import { tokenKey } from '../hashing/fingerprint.js';
import { circuitEventOf, memberFromReply, PlatformHttp, SingleFlight, verifiedIdentifiers } from '../platform-call/index.js';
import type { CallContext, CircuitEvent, HttpLoad } from '../platform-call/index.js';
import { isAbortedError, takesAbortable, type Abortable } from '../platform-call/index.js';
import { ApiTokenProvider } from '../platform-call/index.js';
import type { GameUser } from '../types.js';
import { ApiCall } from '../platform-call/api-call.js';
import type { CallEvent, PlatformClientOptions } from './client-options.js';
import { clientConfig } from './client-options.js';
import { searchParams } from './client-input.js';
import type { MemberQuery } from './client-input.js';
import { RefusalCache } from './refusal-cache.js';
import { clientFleet } from './client-fleet.js';
import type { ClientFleet } from './client-fleet.js';
import { scopedKey } from '../store/index.js';
import type { SessionEndEvent, SessionEndReason, VerificationStoreHealth } from '../store/index.js';
import { TokenRunGuard } from '../platform-call/token-run-guard.js';
import { callChannel, circuitChannel, probeChannel, verifyChannel } from '../diagnostics/channels.js';
import type { CallMessage, CircuitMessage, ProbeMessage, VerifyMessage } from '../diagnostics/channels.js';
import { ChannelViewEmitter } from '../diagnostics/channel-view.js';
import type { ChannelViews } from '../diagnostics/channel-view.js';
import { trace, verifyOutcomeFor } from '../diagnostics/publish.js';
import { clientHealth, waitForApiToken } from './client-health.js';
import type { ClientHealth, HealthExtras } from './client-health.js';
import type { ProbeEvent } from '../platform-call/token-run-guard.js';
import { outageGrace, tellServedInGrace } from './outage-grace.js';
import type { OutageGrace } from './outage-grace.js';

type TokenKind = 'E2' | 'web';

/** Options of one verification. */
export interface VerifyOptions {
  /**
   * The request's signal: abort it when the player's connection closes. A
   * verification nobody waits for any more is dropped from the queue (or
   * stopped in flight) and costs no platform call.
   */
  signal?: AbortSignal | undefined;
}

/** The events a {@link PlatformClient} emits, each with its payload. */
export type ClientEvents = { call: [CallEvent]; circuit: [CircuitEvent]; probe: [ProbeEvent]; 'session-end': [SessionEndEvent] };

/**
 * The platform's server API: verifies user tokens (E2), web tokens, and looks
 * members up (E3). Identical tokens verified concurrently share one call;
 * 40101/40103 lead to exactly one API-token reissue and one retry; every
 * failure is a `PlatformError`.
 *
 * Events: `'call'` ({@link CallEvent}, one per operation); `'circuit'`
 * (`CircuitEvent`, each state change of the circuit breaker: `open`,
 * `half-open`, `closed`); `'probe'` ({@link ProbeEvent}, when a run of 40000s
 * across many distinct user tokens made the client check its own API token
 * with one E3 lookup). Each fact is told once: published on the diagnostics
 * channel of the same name (`call`, `circuit`, `probe`) when it has
 * subscribers, and emitted to this client's listeners when it has some (the
 * client never subscribes to its own channels). `'session-end'` is not
 * telemetry: it ends live connections.
 *
 * @example
 * ```ts
 * import { PlatformClient, fromEnv, isPlatformError } from 'passport-game-platform';
 * const client = new PlatformClient(fromEnv()); // PLATFORM_BASE_URL or PLATFORM_ENV, PLATFORM_CLIENT_ID, ...
 * async function whoIs(tokenFromGameClient: string): Promise<string | null> {
 *   try {
 *     const user = await client.verifyUserToken(tokenFromGameClient);
 *     return user.guid ?? user.memberNo;
 *   } catch (err) {
 *     if (isPlatformError(err) && err.kind === 'invalid_token') return null; // ask for a new login
 *     throw err; // 503 retry_later or 500 contact_support: never a 401
 *   }
 * }
 * ```
 */
export class PlatformClient extends ChannelViewEmitter<ClientEvents> {
  readonly config: ResolvedPlatformConfig;
  readonly provider: ApiTokenProvider;
  readonly #http: PlatformHttp;
  readonly #api: ApiCall;
  readonly #fleet: ClientFleet;
  readonly #refused: RefusalCache;
  readonly #guard: TokenRunGuard;
  readonly #flights: SingleFlight<GameUser>;
  /** Off (undefined) unless `outageGraceMs` is set. */
  readonly #grace: OutageGrace | undefined;
  #closed = false;

  constructor(options: PlatformClientOptions) {
    super();
    this.config = clientConfig(options);
    this.#http = new PlatformHttp(this.config);
    const shared = (options as { provider?: ApiTokenProvider }).provider;
    this.provider = shared ?? new ApiTokenProvider(this.config, { http: this.#http });
    this.viewChannels(CLIENT_VIEWS, this.config.logger);
    this.#http.events = this;
    // One budget per verification, a guid-only answer's E3 lookup included: built once, by the flight.
    this.#flights = new SingleFlight<GameUser>((key) => (key.startsWith('web') ? 'web' : 'E2'), this.config.totalTimeoutMs);
    const guard = this.#guard = new TokenRunGuard(this.config, this.#http, this);
    this.#api = new ApiCall(this.config, this.#http, this.provider, this, guard);
    this.#fleet = clientFleet(this.config, options, (event) => this.emit('session-end', event));
    this.#refused = new RefusalCache(this.config.invalidTokenCacheMs, this.config.monotonic);
    this.#grace = outageGrace(options, this.config, this.#fleet.shared, (kind, digest) => scopedKey(this.#fleet.scope, `grace:${kind}:${digest}`));
    // Its verifications take the adapters' light hang-up signal as it is. Not a subclass's: an
    // override may hand its signal to an API that needs a real AbortSignal.
    if (new.target === PlatformClient) takesAbortable(this);
  }

  /**
   * Verifies a Game User Access Token with E2. The token travels only in the
   * JSON body. Resolves to the member's identifiers as decimal strings. With
   * a shared store, a revocation marker that cannot be read in time (and a
   * store not known to be down) rejects with 503 `retry_later`: an unread
   * marker never counts as "not revoked".
   */
  verifyUserToken(token: string, options: VerifyOptions = {}): Promise<GameUser> {
    return verifyChannel.hasSubscribers ? this.#verifyTraced('E2', token, options.signal) : this.#verifyUntraced('E2', token, options.signal);
  }

  /** Verifies a web (cookie) token: `GET /member/v3.0/{game_id}` with the web token as bearer. */
  verifyWebToken(token: string, options: VerifyOptions = {}): Promise<GameUser> {
    return verifyChannel.hasSubscribers ? this.#verifyTraced('web', token, options.signal) : this.#verifyUntraced('web', token, options.signal);
  }

  /** Looks a member up by member_no or guid (E3); `null` when the platform finds none. */
  async lookupMember(query: MemberQuery, options: VerifyOptions = {}): Promise<GameUser | null> {
    this.#assertOpen('E3');
    return this.#lookup(query, { signal: options.signal });
  }

  #lookup(query: MemberQuery, context: CallContext): Promise<GameUser | null> {
    const params = searchParams(query);
    return this.#api.run('E3', (headers) => ({
      endpoint: 'E3',
      method: 'GET',
      path: this.#api.memberPath,
      query: params,
      headers,
    }), memberFromReply, undefined, context);
  }

  /**
   * Forgets a token's cached verification (e.g. after the player logs out).
   * Wins over every verification of that token already in flight: none of
   * them stores its result. Resolves once the store has dropped it.
   */
  async forgetUserToken(token: string): Promise<void> {
    if (typeof token !== 'string') return;
    await this.#forget(token, tokenKey(token));
  }

  /**
   * Revokes a user token for the game (its own logout, a ban): every
   * instance sharing this client's store and revocation bus refuses it with
   * 401 `relogin` for the rest of its possible lifetime (6 h), whatever the
   * platform says, cached or not; every instance's `'session-end'` listeners
   * end its live connections. Holds on this instance even when the shared
   * store is unreachable (it is sent once the store answers again). Never
   * rejects.
   */
  async revokeUserToken(token: string): Promise<void> {
    if (typeof token !== 'string' || token.length === 0) return;
    const digest = tokenKey(token);
    await Promise.all([this.#fleet.revocations.revoke(digest, 'logout'), this.#forget(token, digest), this.#grace?.drop('E2', digest), this.#grace?.drop('web', digest)]);
  }

  /**
   * Voids the token's verifications in flight: no later caller joins them
   * (their flights are detached) and, with a cache, none of them stores its
   * result (the cache's generation) and its cached results are dropped.
   */
  #forget(token: string, digest: string): Promise<unknown> {
    const e2 = this.#workKey('E2', token, digest);
    const web = this.#workKey('web', token, digest);
    this.#flights.detach(e2);
    this.#flights.detach(web);
    const { cache } = this.#fleet;
    return cache.enabled ? Promise.all([cache.forget(e2), cache.forget(web)]) : Promise.resolve();
  }

  /**
   * The key of a token's verification: of its cached result, its single
   * flight and its generation. With a cache it is the digest, the key of the
   * store; without one it is the token itself, held in this process only
   * while the verification runs, so that the token need not be hashed.
   */
  #workKey(kind: TokenKind, token: string, digest: string | undefined): string {
    return this.#fleet.cache.enabled ? `${kind}:${digest ?? tokenKey(token)}` : `${kind}:${token}`;
  }

  /**
   * Ends a member's live connections on every instance (an admin action, a
   * ban): emits `'session-end'` `{ kind: 'member' }` here and on the others.
   * When the bus cannot take it now, it is held and sent once the bus
   * answers again (for up to 10 minutes). Never rejects.
   */
  async endMemberSessions(memberNo: string, reason: SessionEndReason = 'admin'): Promise<void> {
    await this.#fleet.revocations.endMember(String(memberNo), reason);
  }

  /**
   * The tenant scope of everything this client keeps in a store or sends on
   * a bus: 16 hex digits derived from its platform (base URL) and game id.
   * Store keys start with it (after a store's own prefix), so two games, or
   * Live and Sandbox, sharing a store never read each other's entries.
   */
  get tenantScope(): string {
    return this.#fleet.scope;
  }

  /** The verification store's and the revocation bus's state, for readiness checks (no keys, no values). */
  get storeHealth(): VerificationStoreHealth {
    return this.#fleet.health();
  }

  /**
   * Resolves once an API token is held (one E1 call, shared, retried while
   * the platform is unreachable); rejects with the configuration error (500
   * `contact_support`: 40105, 41002) when the platform refuses our
   * credentials, or with 503 once the client is closed. Call it at startup so
   * a misconfiguration shows at once, not at the first protected request.
   *
   * @example
   * ```ts
   * await client.ready(); // throws a PlatformError naming the fix when the credentials are wrong
   * ```
   */
  ready(): Promise<void> {
    return waitForApiToken(this.provider, () => this.#closed);
  }

  /**
   * A snapshot for readiness probes and dashboards, with no secret and no
   * token: whether an API token is held and its seconds to expiry, the
   * circuit's state, platform calls in flight and queued. `extras` adds what
   * other parts of the application own (the shared store, live connections).
   */
  health(extras: HealthExtras = {}): ClientHealth {
    return clientHealth(this.provider, this.#http.load, this.config.clock, this.#closed, { ...this.#fleet.sharedState(), ...extras });
  }

  /** Platform calls in flight and queued, and the circuit breaker's state (for health checks). */
  get load(): HttpLoad {
    return this.#http.load;
  }

  /**
   * Stops the client: later calls fail at once (503, "the platform client is
   * closed"), calls queued or in flight end with that 503 (never retried on a
   * new socket), and every socket of this client (and of the provider it
   * built) is destroyed. Resolves once no call is left.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#fleet.revocations.close();
    await this.#http.close();
  }

  #assertOpen(endpoint: 'E2' | 'E3' | 'web'): void {
    if (this.#closed) throw errorForTransportFault('closed', endpoint);
  }

  /** A verification told on the `verify` channel (only while it has subscribers). */
  #verifyTraced(kind: TokenKind, token: string, signal: Abortable | undefined): Promise<GameUser> {
    // The token is hashed once: its fingerprint is the first 8 hex digits of the key's digest.
    const digest = typeof token === 'string' ? tokenKey(token) : undefined;
    const message: VerifyMessage = { kind, tokenFingerprint: digest === undefined ? 'none' : digest.slice(0, 8) };
    const started = performance.now();
    return trace(verifyChannel, message, async () => {
      try {
        const user = await this.#verifyCached(kind, token, signal, message, digest);
        message.outcome = 'ok';
        return user;
      } catch (error) {
        const failure = isPlatformError(error) ? error : undefined;
        message.outcome = verifyOutcomeFor(failure?.kind, isAbortedError(error));
        if (failure?.code !== undefined) message.code = failure.code;
        throw error;
      } finally {
        message.durationMs = performance.now() - started;
      }
    });
  }

  /**
   * An untraced verification. While nothing is cached, revoked or refused
   * anywhere (the defaults), nothing needs looking up first: the flight
   * itself, with no async frame of this client around it.
   */
  #verifyUntraced(kind: TokenKind, token: string, signal: Abortable | undefined): Promise<GameUser> {
    const { cache, revocations } = this.#fleet;
    if (cache.enabled || !revocations.holdsNone || !this.#refused.empty) return this.#verifyCached(kind, token, signal, undefined);
    // Every failure a rejection, as from an async function (a signal that is not one included).
    try {
      // The authenticator's rule, one comparison when it has just checked this token.
      checkTokenSyntax(token);
      this.#assertOpen(kind);
      const key = this.#workKey(kind, token, undefined);
      return this.#flights.run(key, (context) => this.#verify(key, kind, token, undefined, context), signal)
        .then((user) => this.#handOut(kind, token, undefined, user));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /** A verified user for one caller: its own copy, unless the token was revoked here meanwhile. */
  #handOut(kind: TokenKind, token: string, digest: string | undefined, user: GameUser): GameUser {
    if (!this.#fleet.revocations.holdsNone && this.#fleet.revocations.isRevokedHere(digest ?? tokenKey(token))) throw revokedError(kind);
    if (user.servedInGrace === true) tellServedInGrace(kind);
    return { ...user };
  }

  async #verifyCached(kind: TokenKind, token: string, signal: Abortable | undefined, message: VerifyMessage | undefined, known?: string): Promise<GameUser> {
    // The authenticator's rule, one comparison when it has just checked this token.
    checkTokenSyntax(token);
    this.#assertOpen(kind);
    const { cache, revocations } = this.#fleet;
    // The digest names the token wherever something is kept or shared (the cache, revocations,
    // refusals): it is computed only when one of them holds something or could.
    let digest = cache.enabled ? known ?? tokenKey(token) : known;
    const key = this.#workKey(kind, token, digest);
    if (!revocations.holdsNone && revocations.isRevokedHere(digest ??= tokenKey(token))) throw revokedError(kind);
    let hit = cache.get(kind, key);
    let revoked = revocations.holdsNone ? false : revocations.isRevoked(digest ??= tokenKey(token));
    // Only a shared store answers later; the in-memory path stays synchronous.
    if (hit instanceof Promise || revoked instanceof Promise) [hit, revoked] = await Promise.all([hit, revoked]);
    if (revoked === true) throw revokedError(kind);
    // Fail closed: a marker that could not be read is never "not revoked".
    if (revoked === 'unknown') throw unreadableRevocation(kind);
    if (message !== undefined) message.cached = hit !== undefined;
    if (hit !== undefined) {
      if (this.heard('call')) this.tell('call', { endpoint: kind, outcome: 'success', durationMs: 0, attempts: 0, cached: true } satisfies CallMessage);
      return hit;
    }
    const refused = this.#refused.empty ? undefined : this.#refused.get(`${kind}:${digest ??= tokenKey(token)}`);
    // While a probe blames our own side, a 40000 is not the player's fault: ask again.
    if (refused !== undefined && !this.#guard.suspectsOurSide) {
      if (this.heard('call')) this.tell('call', { endpoint: kind, outcome: 'rejected', code: refused, kind: 'invalid_token', durationMs: 0, attempts: 0, cached: true } satisfies CallMessage);
      throw errorForPlatformCode(refused, kind);
    }
    // A forget or revocation detaches the flight: later callers never join a verification begun before it.
    return this.#handOut(kind, token, digest, await this.#flights.run(key, (context) => this.#verify(key, kind, token, digest, context), signal));
  }

  async #verify(key: string, kind: TokenKind, token: string, digest: string | undefined, context: CallContext): Promise<GameUser> {
    const { cache } = this.#fleet;
    // Only a result to store needs a ticket: it tells whether a forget came since the verification began.
    const ticket = cache.enabled ? cache.begin(key) : undefined;
    try {
      const ids = kind === 'E2'
        ? await this.#api.run('E2', (headers) => ({
          endpoint: 'E2',
          method: 'POST',
          path: this.#api.verifyPath,
          headers,
          body: { access_token: token },
        }), verifiedIdentifiers, token, context)
        : await this.#api.runWithoutApiToken('web', {
          endpoint: 'web',
          method: 'GET',
          path: this.#api.memberPath,
          headers: { Authorization: `Bearer ${token}`, 'caller-id': this.config.callerId },
        }, verifiedIdentifiers, context);
      // A member_no in the answer (the common case) needs no second call, nor a promise.
      const user = ids.memberNo !== null ? { memberNo: ids.memberNo, guid: ids.guid } : await this.#completeMember(ids.guid!, context);
      const stored = ticket === undefined ? undefined : cache.store(ticket, user);
      // With the outage grace on, the token's grace starts again (in the shared store before the answer).
      const remembered = this.#grace?.record(kind, digest ?? tokenKey(token), user);
      if (stored !== undefined || remembered !== undefined) await Promise.all([stored, remembered]);
      return user;
    } catch (error) {
      if (cache.enabled) void cache.forget(key);
      // The platform's own 40000 for this token: a refused token never becomes valid.
      if (isPlatformError(error) && error.kind === 'invalid_token' && error.code === PlatformCode.BAD_REQUEST) {
        this.#refused.set(`${kind}:${digest ?? tokenKey(token)}`, error.code);
      }
      // In an outage, a token verified within the grace; a refusal ends its grace.
      if (this.#grace !== undefined) return this.#grace.settle(kind, digest ?? tokenKey(token), error);
      throw error;
    } finally {
      if (ticket !== undefined) cache.end(ticket);
    }
  }

  /** A GUID-based answer without member_no: ask E3 for it, so `req.user.memberNo` is always set. */
  async #completeMember(guid: string, context: CallContext): Promise<GameUser> {
    const found = await this.#lookup({ guid }, context).catch((error: unknown) => {
      // The player's token was fine: E3 refusing our own lookup is a server-side fault, not a 400.
      if (isPlatformError(error) && error.kind === 'invalid_request') {
        throw new PlatformError({ kind: 'configuration', code: error.code, message: `E3 refused our lookup of guid ${guid} (${error.code ?? 'no code'}) while completing a verified user.` });
      }
      throw error;
    });
    if (found === null) {
      throw new PlatformError({
        kind: 'configuration',
        message: `The platform verified a token for guid ${guid} but E3 finds no member with that guid for game ${this.config.gameId}.`,
      });
    }
    return { memberNo: found.memberNo, guid };
  }
}

function revokedError(kind: TokenKind): PlatformError {
  return new PlatformError({
    kind: 'invalid_token',
    message: `The game revoked this ${kind === 'web' ? 'web' : 'user'} token (logout or ban); the player must log in again.`,
    description: 'The token was revoked',
  });
}

function unreadableRevocation(kind: TokenKind): PlatformError {
  return new PlatformError({
    kind: 'platform_unavailable',
    retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
    message: `The shared store did not answer in time whether this ${kind === 'web' ? 'web' : 'user'} token was revoked: try again shortly.`,
  });
}

/** The client's telemetry events: its view of the `call`, `circuit` and `probe` channels' messages. */
const CLIENT_VIEWS: ChannelViews<ClientEvents> = {
  call: { channel: callChannel, read: (m: CallMessage) => ({ ...m }) },
  circuit: { channel: circuitChannel, read: (m: CircuitMessage) => circuitEventOf(m) },
  probe: { channel: probeChannel, read: (m: ProbeMessage) => ({ ...m }) },
};
