import type { ResolvedPlatformConfig } from '../config/index.js';
import { checkTokenSyntax, DEFAULT_RETRY_AFTER_SECONDS, errorForPlatformCode, errorForTransportFault, isPlatformError, PlatformCode, PlatformError } from '../errors/index.js';
import { tokenKey } from '../hashing/fingerprint.js';
import type { ApiCall, ApiRequest } from '../platform-call/api-call.js';
import type { Abortable } from '../platform-call/deadline-signal.js';
import type { CallContext, PlatformRequest } from '../platform-call/platform-http.js';
import { verifiedIdentifiers } from '../platform-call/platform-body.js';
import type { SingleFlight } from '../platform-call/single-flight.js';
import type { TokenRunGuard } from '../platform-call/token-run-guard.js';
import type { CallMessage, VerifyMessage } from '../diagnostics/channels.js';
import type { Teller } from '../diagnostics/channel-view.js';
import type { GameUser } from '../types.js';
import type { ClientStores } from './client-stores.js';
import type { MemberLookup } from './member-lookup.js';
import type { OutageGrace } from './outage-grace.js';
import { tellServedInGrace } from './outage-grace.js';
import type { RefusalCache } from './refusal-cache.js';

/** `E2` for a Game User Access Token, `web` for a web (cookie) token. */
export type TokenKind = 'E2' | 'web';

/** E2's request: the user token travels only in the JSON body. */
export function userTokenRequest(path: string, token: string): ApiRequest {
  return { endpoint: 'E2', method: 'POST', path, body: { access_token: token } };
}

/** The web-token check: the web token is the bearer, no API token. */
export function webTokenRequest(path: string, callerId: string, token: string): PlatformRequest {
  return { endpoint: 'web', method: 'GET', path, headers: { Authorization: `Bearer ${token}`, 'caller-id': callerId } };
}

/** What one {@link TokenVerification} works with: the client's parts. */
export interface VerificationParts {
  readonly config: ResolvedPlatformConfig;
  readonly api: ApiCall;
  readonly lookup: MemberLookup;
  readonly stores: ClientStores;
  readonly refused: RefusalCache;
  readonly guard: TokenRunGuard;
  readonly flights: SingleFlight<GameUser>;
  /** Off (undefined) unless `outageGraceMs` is set. */
  readonly grace: OutageGrace | undefined;
  /** The client: its `call` event and channel. */
  readonly events: Teller<'call'>;
}

/**
 * Verifies user tokens (E2) and web tokens: revocations first, then the
 * cache and the refusals remembered, then one platform call shared by every
 * concurrent caller of the same token (its single flight), whose result is
 * cached and, with the outage grace on, remembered for an outage.
 */
export class TokenVerification {
  readonly #config: ResolvedPlatformConfig;
  readonly #api: ApiCall;
  readonly #lookup: MemberLookup;
  readonly #stores: ClientStores;
  readonly #refused: RefusalCache;
  readonly #guard: TokenRunGuard;
  readonly #flights: SingleFlight<GameUser>;
  readonly #grace: OutageGrace | undefined;
  readonly #events: Teller<'call'>;
  #closed = false;

  constructor(parts: VerificationParts) {
    this.#config = parts.config;
    this.#api = parts.api;
    this.#lookup = parts.lookup;
    this.#stores = parts.stores;
    this.#refused = parts.refused;
    this.#guard = parts.guard;
    this.#flights = parts.flights;
    this.#grace = parts.grace;
    this.#events = parts.events;
  }

  /** From now on every verification fails at once with 503 (the client is closed). */
  close(): void {
    this.#closed = true;
  }

  /**
   * One verification. While nothing is cached, revoked or refused anywhere
   * (the defaults) and nobody traces it, nothing needs looking up first: the
   * flight itself, with no async frame around it. `message` is the `verify`
   * channel's, when it is traced.
   */
  verifyToken(kind: TokenKind, token: string, signal: Abortable | undefined, message?: VerifyMessage, digest?: string): Promise<GameUser> {
    const { cache, revocations } = this.#stores;
    if (message !== undefined || cache.enabled || !revocations.holdsNone || !this.#refused.empty) return this.verifyAfterChecks(kind, token, signal, message, digest);
    // Every failure a rejection, as from an async function (a signal that is not one included).
    try {
      // The authenticator's rule, one comparison when it has just checked this token.
      checkTokenSyntax(token);
      this.#assertOpen(kind);
      const key = this.#workKey(kind, token, undefined);
      const flight = this.#flights.share(key, (context) => this.askPlatform(key, kind, token, undefined, context), signal);
      return flight.then((user) => this.#handOut(kind, token, undefined, user));
    } catch (error) {
      return Promise.reject(error);
    }
  }

  /**
   * A verification that first reads what is kept: a revocation (here or in
   * the shared store), a cached result, a refusal remembered. The digest names
   * the token wherever something is kept or shared: it is computed only when
   * one of them holds something or could.
   */
  async verifyAfterChecks(kind: TokenKind, token: string, signal: Abortable | undefined, message: VerifyMessage | undefined, known?: string): Promise<GameUser> {
    // The authenticator's rule, one comparison when it has just checked this token.
    checkTokenSyntax(token);
    this.#assertOpen(kind);
    const { cache, revocations } = this.#stores;
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
      if (this.#events.heard('call')) this.#events.tell('call', { endpoint: kind, outcome: 'success', durationMs: 0, attempts: 0, cached: true } satisfies CallMessage);
      return hit;
    }
    const refused = this.#refused.empty ? undefined : this.#refused.get(`${kind}:${digest ??= tokenKey(token)}`);
    // While a probe blames our own side, a 40000 is not the player's fault: ask again.
    if (refused !== undefined && !this.#guard.suspectsOurSide) {
      if (this.#events.heard('call')) this.#events.tell('call', { endpoint: kind, outcome: 'rejected', code: refused, kind: 'invalid_token', durationMs: 0, attempts: 0, cached: true } satisfies CallMessage);
      throw errorForPlatformCode(refused, kind);
    }
    // A forget or revocation detaches the flight: later callers never join a verification begun before it.
    const user = await this.#flights.share(key, (context) => this.askPlatform(key, kind, token, digest, context), signal);
    return this.#handOut(kind, token, digest, user);
  }

  /**
   * The platform's answer for one flight: E2 (or the web-token check), E3
   * when the answer names a guid alone; stored in the cache and the outage
   * grace. A refusal (40000) is remembered; in an outage, the grace answers.
   */
  async askPlatform(key: string, kind: TokenKind, token: string, digest: string | undefined, context: CallContext): Promise<GameUser> {
    const { cache } = this.#stores;
    // Only a result to store needs a ticket: it tells whether a forget came since the verification began.
    const ticket = cache.enabled ? cache.begin(key) : undefined;
    try {
      const ids = kind === 'E2'
        ? await this.#api.callWithApiToken(userTokenRequest(this.#api.verifyPath, token), verifiedIdentifiers, token, context)
        : await this.#api.callWithoutApiToken(webTokenRequest(this.#api.memberPath, this.#config.callerId, token), verifiedIdentifiers, context);
      // A member_no in the answer (the common case) needs no second call, nor a promise.
      const user = ids.memberNo !== null ? { memberNo: ids.memberNo, guid: ids.guid } : await this.#lookup.complete(ids.guid!, context);
      const stored = ticket === undefined ? undefined : cache.store(ticket, user);
      // With the outage grace on, the token's grace starts again (in the shared store before the answer).
      const remembered = this.#grace?.remember(kind, digest ?? tokenKey(token), user);
      if (stored !== undefined || remembered !== undefined) await Promise.all([stored, remembered]);
      return user;
    } catch (error) {
      if (cache.enabled) void cache.forget(key);
      // The platform's own 40000 for this token: a refused token never becomes valid.
      if (isPlatformError(error) && error.kind === 'invalid_token' && error.code === PlatformCode.BAD_REQUEST) {
        this.#refused.set(`${kind}:${digest ?? tokenKey(token)}`, error.code);
      }
      // In an outage, a token verified within the grace; a refusal ends its grace.
      if (this.#grace !== undefined) return this.#grace.answerFailure(kind, digest ?? tokenKey(token), error);
      throw error;
    } finally {
      if (ticket !== undefined) cache.end(ticket);
    }
  }

  /**
   * Voids the token's verifications in flight: no later caller joins them
   * (their flights are detached) and, with a cache, none of them stores its
   * result (the cache's generation) and its cached results are dropped.
   */
  forget(token: string, digest: string): Promise<unknown> {
    const e2 = this.#workKey('E2', token, digest);
    const web = this.#workKey('web', token, digest);
    this.#flights.detach(e2);
    this.#flights.detach(web);
    const { cache } = this.#stores;
    return cache.enabled ? Promise.all([cache.forget(e2), cache.forget(web)]) : Promise.resolve();
  }

  /** Revokes the token (every instance refuses it), forgets its verifications and ends its outage grace. */
  revoke(token: string): Promise<unknown> {
    const digest = tokenKey(token);
    return Promise.all([this.#stores.revocations.revoke(digest, 'logout'), this.forget(token, digest), this.#grace?.drop('E2', digest), this.#grace?.drop('web', digest)]);
  }

  /**
   * The key of a token's verification: of its cached result, its single
   * flight and its generation. With a cache it is the digest, the key of the
   * store; without one it is the token itself, held in this process only
   * while the verification runs, so that the token need not be hashed.
   */
  #workKey(kind: TokenKind, token: string, digest: string | undefined): string {
    return this.#stores.cache.enabled ? `${kind}:${digest ?? tokenKey(token)}` : `${kind}:${token}`;
  }

  /** A verified user for one caller: its own copy, unless the token was revoked here meanwhile. */
  #handOut(kind: TokenKind, token: string, digest: string | undefined, user: GameUser): GameUser {
    if (!this.#stores.revocations.holdsNone && this.#stores.revocations.isRevokedHere(digest ?? tokenKey(token))) throw revokedError(kind);
    if (user.servedInGrace === true) tellServedInGrace(kind);
    return { ...user };
  }

  #assertOpen(kind: TokenKind): void {
    if (this.#closed) throw errorForTransportFault('closed', kind);
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
