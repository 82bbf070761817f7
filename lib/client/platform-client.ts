import type { ResolvedPlatformConfig } from '../config/index.js';
import { errorForTransportFault } from '../errors/index.js';
import { tokenKey } from '../hashing/fingerprint.js';
import { circuitEventOf } from '../platform-call/circuit-breaker.js';
import type { CircuitEvent } from '../platform-call/circuit-breaker.js';
import { PlatformHttp } from '../platform-call/platform-http.js';
import type { HttpLoad } from '../platform-call/platform-http.js';
import { SingleFlight } from '../platform-call/single-flight.js';
import { takesAbortable } from '../platform-call/signal-bridge.js';
import { ApiTokenProvider } from '../platform-call/api-token-provider.js';
import { ApiCall } from '../platform-call/api-call.js';
import { TokenRunGuard } from '../platform-call/token-run-guard.js';
import type { ProbeEvent } from '../platform-call/token-run-guard.js';
import type { GameUser, UserTokenVerifier } from '../types.js';
import type { CallEvent, PlatformClientOptions } from './client-options.js';
import { clientConfig } from './client-options.js';
import type { MemberQuery } from './client-input.js';
import { RefusalCache } from './refusal-cache.js';
import { clientStores } from './client-stores.js';
import type { ClientStores } from './client-stores.js';
import { scopedKey } from '../store/index.js';
import type { SessionEndEvent, SessionEndReason, VerificationStoreHealth } from '../store/index.js';
import { callChannel, circuitChannel, probeChannel, verifyChannel } from '../diagnostics/channels.js';
import type { CallMessage, CircuitMessage, ProbeMessage } from '../diagnostics/channels.js';
import { ChannelViewEmitter } from '../diagnostics/channel-view.js';
import type { ChannelViews } from '../diagnostics/channel-view.js';
import { clientHealth, waitForApiToken } from './client-health.js';
import type { ClientHealth, HealthExtras } from './client-health.js';
import { outageGrace } from './outage-grace.js';
import { MemberLookup } from './member-lookup.js';
import { TokenVerification } from './token-verification.js';
import { traceVerification } from './verify-trace.js';

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
export class PlatformClient extends ChannelViewEmitter<ClientEvents> implements UserTokenVerifier {
  readonly config: ResolvedPlatformConfig;
  readonly provider: ApiTokenProvider;
  readonly #http: PlatformHttp;
  readonly #stores: ClientStores;
  readonly #verification: TokenVerification;
  readonly #lookup: MemberLookup;
  #closed = false;

  constructor(options: PlatformClientOptions) {
    super();
    const config = this.config = clientConfig(options);
    const http = this.#http = new PlatformHttp(config);
    const shared = (options as { provider?: ApiTokenProvider }).provider;
    this.provider = shared ?? new ApiTokenProvider(config, { http });
    this.viewChannels(CLIENT_VIEWS, config.logger);
    http.events = this;
    const guard = new TokenRunGuard(config, http, this);
    const api = new ApiCall(config, http, this.provider, this, guard);
    const stores = this.#stores = clientStores(config, options, (event) => this.emit('session-end', event));
    this.#lookup = new MemberLookup(config, api);
    this.#verification = new TokenVerification({
      config,
      api,
      guard,
      stores,
      lookup: this.#lookup,
      refused: new RefusalCache(config.invalidTokenCacheMs, config.monotonic),
      // One budget per verification, a guid-only answer's E3 lookup included: built once, by the flight.
      flights: new SingleFlight<GameUser>((key) => (key.startsWith('web') ? 'web' : 'E2'), config.totalTimeoutMs),
      grace: outageGrace(options, config, stores.shared, (kind, digest) => scopedKey(stores.scope, `grace:${kind}:${digest}`)),
      events: this,
    });
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
    const { signal } = options;
    return verifyChannel.hasSubscribers ? traceVerification(this.#verification, 'E2', token, signal) : this.#verification.verifyToken('E2', token, signal);
  }

  /** Verifies a web (cookie) token: `GET /member/v3.0/{game_id}` with the web token as bearer. */
  verifyWebToken(token: string, options: VerifyOptions = {}): Promise<GameUser> {
    const { signal } = options;
    return verifyChannel.hasSubscribers ? traceVerification(this.#verification, 'web', token, signal) : this.#verification.verifyToken('web', token, signal);
  }

  /** Looks a member up by member_no or guid (E3); `null` when the platform finds none. */
  async lookupMember(query: MemberQuery, options: VerifyOptions = {}): Promise<GameUser | null> {
    this.#assertOpen('E3');
    return this.#lookup.find(query, { signal: options.signal });
  }

  /**
   * Forgets a token's cached verification (e.g. after the player logs out).
   * Wins over every verification of that token already in flight: none of
   * them stores its result. Resolves once the store has dropped it.
   */
  async forgetUserToken(token: string): Promise<void> {
    if (typeof token !== 'string') return;
    await this.#verification.forget(token, tokenKey(token));
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
    await this.#verification.revoke(token);
  }

  /**
   * Ends a member's live connections on every instance (an admin action, a
   * ban): emits `'session-end'` `{ kind: 'member' }` here and on the others.
   * When the bus cannot take it now, it is held and sent once the bus
   * answers again (for up to 10 minutes). Never rejects.
   */
  async endMemberSessions(memberNo: string, reason: SessionEndReason = 'admin'): Promise<void> {
    await this.#stores.revocations.endMember(String(memberNo), reason);
  }

  /**
   * The tenant scope of everything this client keeps in a store or sends on
   * a bus: 16 hex digits derived from its platform (base URL) and game id.
   * Store keys start with it (after a store's own prefix), so two games, or
   * Live and Sandbox, sharing a store never read each other's entries.
   */
  get tenantScope(): string {
    return this.#stores.scope;
  }

  /** The verification store's and the revocation bus's state, for readiness checks (no keys, no values). */
  get storeHealth(): VerificationStoreHealth {
    return this.#stores.health();
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
    return clientHealth(this.provider, this.#http.load, this.config.clock, this.#closed, { ...this.#stores.sharedState(), ...extras });
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
    this.#verification.close();
    this.#stores.revocations.close();
    await this.#http.close();
  }

  #assertOpen(endpoint: 'E2' | 'E3' | 'web'): void {
    if (this.#closed) throw errorForTransportFault('closed', endpoint);
  }
}

/** The client's telemetry events: its view of the `call`, `circuit` and `probe` channels' messages. */
const CLIENT_VIEWS: ChannelViews<ClientEvents> = {
  call: { channel: callChannel, read: (m: CallMessage) => ({ ...m }) },
  circuit: { channel: circuitChannel, read: (m: CircuitMessage) => circuitEventOf(m) },
  probe: { channel: probeChannel, read: (m: ProbeMessage) => ({ ...m }) },
};
