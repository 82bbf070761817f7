import { EventEmitter } from 'node:events';
import { performance } from 'node:perf_hooks';
import pMemoize from 'p-memoize';
import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint, resolvePlatformConfig, tokenKey } from '../config/index.js';
import { errorForPlatformCode, errorForTransportFault, isPlatformError } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { isCircuitOpenError, PlatformHttp } from '../http/index.js';
import { ConfigurationBackoff } from './configuration-backoff.js';
import { requestApiToken } from './request-api-token.js';
import { holdToken, renewalRetryDelayMs } from './token-lifetime.js';
import type { HeldToken } from './token-lifetime.js';
import type { ApiTokenProviderDeps, GetTokenOptions, ProviderState, TokenEvent } from './provider-types.js';
import { waitUntil } from './wait-until.js';

/**
 * The API Access Token (E1) of one game server, shared by every client,
 * strategy and middleware of the process. Concurrent callers share one E1
 * call; failures are never cached; the token is renewed in the background once
 * less than 30 % of its lifetime remains, while the held one is still served.
 * No timer is ever set: expiry is checked on read with `config.clock`.
 *
 * @example
 * ```ts
 * import { ApiTokenProvider, PlatformClient } from 'passport-game-platform';
 * const provider = new ApiTokenProvider({ environment: 'live', clientId: 'id', clientSecret: 'secret', gameId: 'MYGAME' });
 * provider.on('token', (event) => console.log(event.type, event.fingerprint));
 * const client = new PlatformClient({ provider });
 * ```
 */
export class ApiTokenProvider extends EventEmitter<{ token: [TokenEvent] }> {
  readonly config: ResolvedPlatformConfig;
  readonly #http: PlatformHttp;
  readonly #ownsHttp: boolean;
  readonly #issueShared: () => Promise<string>;
  readonly #backoff: ConfigurationBackoff;
  #held: HeldToken | undefined;
  #renewing = false;
  #renewalPausedUntil = -Infinity;
  /** Background renewals in a row that failed or got the held token back. */
  #renewalMisses = 0;

  constructor(config: PlatformConfig | ResolvedPlatformConfig, deps: ApiTokenProviderDeps = {}) {
    super();
    this.config = resolvePlatformConfig(config);
    this.#ownsHttp = deps.http === undefined;
    this.#http = deps.http ?? new PlatformHttp(this.config);
    this.#backoff = new ConfigurationBackoff(this.config.clock);
    this.#issueShared = pMemoize(() => this.#issue(), { cache: false, cacheKey: () => 'E1' });
  }

  /** The held API token, or a fresh one from E1 (one call shared by all concurrent callers). */
  async getToken(options: GetTokenOptions = {}): Promise<string> {
    const now = this.config.clock.now();
    const held = this.#held;
    if (held !== undefined && now < held.usableUntil) {
      if (now >= held.renewAt && now >= this.#renewalPausedUntil) this.#renewInBackground();
      return held.token;
    }
    const blocked = this.#backoff.current();
    if (blocked !== undefined) throw blocked;
    return waitUntil(this.#issueShared(), options.deadline, () => errorForTransportFault('timeout', 'E1'));
  }

  /** Drops the held token if it is `token`. A no-op while backing off from that token (trap 13). */
  invalidate(token: string): void {
    if (this.#backoff.current(tokenKey(token)) !== undefined) return;
    if (this.#held?.token === token) this.#held = undefined;
  }

  /**
   * After the platform refused `rejected` (40101/40103): drops it and gets a
   * token from E1, which may be the same one (E1 hands a token back while 30 %
   * of its lifetime remains). Throws the `configuration` error at once while
   * backing off from that token.
   */
  async reissue(rejected: string, options: GetTokenOptions = {}): Promise<string> {
    const blocked = this.#backoff.current(tokenKey(rejected));
    if (blocked !== undefined) throw blocked;
    this.invalidate(rejected);
    return this.getToken(options);
  }

  /**
   * The call failed again with the reissued token: a configuration fault, not
   * something to retry (trap 13). Logs one clear line, stops reissuing for
   * this token for `CONFIGURATION_BACKOFF_MS`, and returns the error to throw.
   */
  rejectedAfterReissue(token: string, code: number, endpoint: PlatformEndpoint, handedBack: boolean): PlatformError {
    const key = tokenKey(token);
    const active = this.#backoff.current(key);
    if (active !== undefined) return active;
    const error = errorForPlatformCode(code, endpoint);
    const why = handedBack ? ' E1 handed the refused token back.' : '';
    this.#backoff.start(error, key);
    this.config.logger.error(
      { code, endpoint, fingerprint: fingerprint(token), backoffMs: this.#backoff.durationMs },
      `${error.message}${why} No new token is asked for it for ${this.#backoff.durationMs / 1000} s.`,
    );
    this.emit('token', { type: 'failed', fingerprint: fingerprint(token), durationMs: 0, code, kind: error.kind });
    return error;
  }

  /** A snapshot (fingerprint and times only) for health checks. */
  get state(): ProviderState {
    const held = this.#held;
    const until = this.#backoff.until();
    return {
      ...(held ? { fingerprint: held.fingerprint, expiresAt: held.expiresAt, renewAt: held.renewAt } : {}),
      ...(until === undefined ? {} : { backoffUntil: until }),
    };
  }

  /** Releases the HTTP layer's sockets when this provider built it. */
  close(): void {
    if (this.#ownsHttp) this.#http.close();
  }

  #renewInBackground(): void {
    if (this.#renewing) return;
    this.#renewing = true;
    this.#issueShared()
      .catch(() => {
        // Already logged and emitted; keep serving the held token, try again later.
        this.#pauseRenewal();
      })
      .finally(() => {
        this.#renewing = false;
      });
  }

  async #issue(): Promise<string> {
    const started = performance.now();
    const now = this.config.clock.now();
    const previous = this.#held;
    let issued;
    try {
      issued = await requestApiToken(this.#http, this.config);
    } catch (error) {
      throw this.#failed(error, started);
    }
    const { token, expiresInMs } = issued;
    const held = holdToken(token, fingerprint(token), now, expiresInMs, previous);
    const type = previous === undefined ? 'issued' : previous.token === token ? 'reused' : 'renewed';
    if (type === 'reused') this.#pauseRenewal();
    else this.#renewalMisses = 0;
    this.#held = held;
    this.#backoff.clearGlobal();
    this.config.logger.info({ event: type, fingerprint: held.fingerprint, expiresAt: held.expiresAt }, `API token ${type}`);
    this.emit('token', { type, fingerprint: held.fingerprint, expiresAt: held.expiresAt, durationMs: performance.now() - started });
    return token;
  }

  #pauseRenewal(): void {
    this.#renewalMisses += 1;
    this.#renewalPausedUntil = this.config.clock.now() + renewalRetryDelayMs(this.#renewalMisses);
  }

  #failed(error: unknown, started: number): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', 'E1');
    if (failure.kind === 'configuration') {
      // 40105, 41002: one clear line, then no E1 call for a while (no storm).
      this.#backoff.start(failure);
      this.config.logger.error({ code: failure.code, endpoint: 'E1' }, failure.message);
    } else if (!isCircuitOpenError(failure)) {
      // An open circuit has logged its one line; a line per refused call would be a storm.
      this.config.logger.warn({ code: failure.code, endpoint: 'E1' }, `API token issuance failed: ${failure.message}`);
    }
    this.emit('token', {
      type: 'failed',
      ...(this.#held ? { fingerprint: this.#held.fingerprint } : {}),
      durationMs: performance.now() - started,
      ...(failure.code === undefined ? {} : { code: failure.code }),
      kind: failure.kind,
    });
    return failure;
  }
}
