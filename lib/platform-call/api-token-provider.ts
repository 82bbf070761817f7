import { performance } from 'node:perf_hooks';
import type { PlatformConfig, ResolvedPlatformConfig } from '../config/index.js';
import { resolvePlatformConfig } from '../config/index.js';
import { fingerprint, tokenKey } from '../hashing/fingerprint.js';
import {
  errorForPlatformCode, errorForTransportFault, isPlatformError, PlatformCode,
} from '../errors/index.js';
import type { PlatformError } from '../errors/index.js';
import { isApiTokenRejection } from './platform-body.js';
import { isCircuitOpenError } from './circuit-breaker.js';
import { PlatformHttp } from './platform-http.js';
import { SingleFlight } from './single-flight.js';
import type { Logger } from '../types.js';
import { LogThrottle } from '../logging/log-throttle.js';
import { requestApiToken } from './request-api-token.js';
import { CONFIGURATION_BACKOFF_MS, holdToken, renewalRetryDelayMs } from './token-lifetime.js';
import type { HeldToken } from './token-lifetime.js';
import type {
  ApiTokenProviderDeps, GetTokenOptions, ProviderState, TokenEvent, TokenReply, WithTokenOptions,
} from './provider-types.js';
import { waitUntil } from './wait-until.js';
import { apiTokenChannel, apiTokenStateChannel } from '../diagnostics/channels.js';
import type { ApiTokenMessage, ApiTokenStateMessage } from '../diagnostics/channels.js';
import { trace } from '../diagnostics/publish.js';
import { ChannelViewEmitter } from '../diagnostics/channel-view.js';
import type { ChannelViews } from '../diagnostics/channel-view.js';
import { tokenEventOf } from './token-event.js';

/**
 * "Our side is at fault" for a while: no E1 call meanwhile. `key` and `code` tie it to one
 * refused token and the way it was refused (a token refused as unknown may later expire for
 * real, and an expiry always deserves a new token); no key: E1 itself failed (40105).
 */
interface Refusal {
  readonly error: PlatformError;
  readonly key: string | undefined;
  readonly code: number | undefined;
  /** Monotonic end. */
  readonly until: number;
}

const defaultRefusal = (reply: TokenReply): number | undefined => (isApiTokenRejection(reply.code) ? reply.code : undefined);

/**
 * The API Access Token (E1) of one game server, shared by every client,
 * strategy and middleware of the process, and the one owner of its
 * lifecycle: {@link withToken} runs an operation with the token, notices the
 * platform refusing it (40101/40103), reissues it once, retries once, and
 * alone decides whether a fault is ours. Concurrent callers share one E1
 * call; failures are never cached; the token is renewed in the background
 * once less than 30 % of its lifetime remains, while the held one is still
 * served. No timer is ever set: lifetimes are read from `config.clock` (wall
 * time, as the platform gives them), back-offs from the monotonic clock.
 * The `'token'` event is this provider's view of the `api-token-state`
 * diagnostics channel (subscribed while it has listeners).
 *
 * @example
 * ```ts
 * import { ApiTokenProvider, PlatformClient, fromEnv } from 'passport-game-platform';
 * const provider = new ApiTokenProvider(fromEnv());
 * provider.on('token', (event) => console.log(event.type, event.fingerprint));
 * const client = new PlatformClient({ provider });
 * ```
 */
export class ApiTokenProvider extends ChannelViewEmitter<{ token: [TokenEvent] }> {
  readonly config: ResolvedPlatformConfig;
  readonly #http: PlatformHttp;
  readonly #ownsHttp: boolean;
  /** One E1 call shared by every concurrent caller (never cached: a failure is not kept). */
  readonly #issues = new SingleFlight<string>(() => 'E1');
  readonly #faults: LogThrottle;
  #held: HeldToken | undefined;
  #refusal: Refusal | undefined;
  #renewing = false;
  /** True once any token was held: a later issue without one is a reissue. */
  #everHeld = false;
  #renewalPausedUntil = -Infinity;
  /** Background renewals in a row that failed or got the held token back. */
  #renewalMisses = 0;

  constructor(config: PlatformConfig | ResolvedPlatformConfig, deps: ApiTokenProviderDeps = {}) {
    super();
    this.config = resolvePlatformConfig(config);
    this.#ownsHttp = deps.http === undefined;
    this.#http = deps.http ?? new PlatformHttp(this.config);
    this.#faults = new LogThrottle(this.config.monotonic, CONFIGURATION_BACKOFF_MS);
    this.viewChannels(PROVIDER_VIEWS, this.config.logger);
  }

  /** The held API token, or a fresh one from E1 (one call shared by all concurrent callers). */
  async getToken(options: GetTokenOptions = {}): Promise<string> {
    const usable = this.heldToken();
    if (usable !== undefined) return usable;
    const blocked = this.#blocked(undefined, undefined);
    if (blocked !== undefined) throw blocked;
    return waitUntil(this.#issueShared(), options.deadline, () => errorForTransportFault('timeout', 'E1'), options.signal);
  }

  /**
   * Runs one platform operation with the API token. When its answer shows the
   * token refused (40101/40103 by default), drops it, gets one from E1 and
   * runs the operation once more, even when E1 hands the refused token back
   * (the platform may have refused it in passing). Refused again: a
   * configuration fault (500), logged once, and no E1 call for that token
   * refused that way for `CONFIGURATION_BACKOFF_MS` (60 s); the same token
   * refused another way (a 40101 storm's token later expiring, 40103) gets
   * its new token at once. Any accepted answer clears every such state at once.
   */
  async withToken<T extends TokenReply>(attempt: (apiToken: string) => Promise<T>, options: WithTokenOptions<T>): Promise<T> {
    // The held token, the common case, without a promise of its own.
    const first = this.heldToken() ?? await this.getToken(options);
    if (options.trace !== undefined) options.trace.apiToken = first;
    return this.settle(first, await attempt(first), attempt, options);
  }

  /**
   * {@link withToken} from the first answer on, for a caller that made the
   * first attempt itself with `first`: the answer at once when it does not
   * show our token refused (no promise), else the reissue and the one retry.
   *
   * @internal
   */
  settle<T extends TokenReply>(first: string, reply: T, attempt: (apiToken: string) => Promise<T>, options: WithTokenOptions<T>): T | Promise<T> {
    const refused = (options.refusal ?? defaultRefusal)(reply, first);
    if (refused === undefined) return this.#answered(reply, options);
    return this.#afterRefusal(first, reply, refused, attempt, options);
  }

  /**
   * Tells the provider of an answer that does not refuse our API token, read
   * by a caller that made the attempt itself: a success ends any belief that
   * our side is at fault.
   *
   * @internal
   */
  answered(reply: TokenReply): void {
    if (reply.code === PlatformCode.SUCCESS) this.#refusal = undefined;
  }

  async #afterRefusal<T extends TokenReply>(
    first: string, reply: T, refused: number | Promise<number | undefined>, attempt: (apiToken: string) => Promise<T>, options: WithTokenOptions<T>,
  ): Promise<T> {
    const trace = options.trace ?? {};
    const refusal = options.refusal ?? defaultRefusal;
    const firstCode = await refused;
    if (firstCode === undefined) return this.#answered(reply, options);
    const blocked = this.#blocked(tokenKey(first), firstCode);
    if (blocked !== undefined) throw blocked;
    trace.reissued = true;
    if (this.#held?.token === first) {
      this.#held = undefined;
      if (this.heard('token')) this.#publishState({ state: 'dropped', apiTokenFingerprint: fingerprint(first) });
    }
    const fresh = await this.getToken(options);
    trace.apiToken = fresh;
    const retried = await attempt(fresh);
    const code = await refusal(retried, fresh);
    if (code === undefined) return this.#answered(retried, options);
    throw this.#refusedAgain(fresh, code, options, fresh === first);
  }

  /**
   * Logs a failure at most once per fault per `CONFIGURATION_BACKOFF_MS` (60 s)
   * (the package's one throttle for fault lines, on the monotonic clock): a
   * configuration fault as an error, a platform fault as a warning. The open
   * circuit breaker logs its own line.
   */
  reportFault(error: PlatformError, fields: object, logger: Logger = this.config.logger, text: string = error.message): void {
    if (isCircuitOpenError(error)) return;
    if (!this.#faults.allow(`${error.kind}:${error.code ?? ''}:${error.message}`)) return;
    if (error.kind === 'configuration') logger.error(fields, text);
    else logger.warn(fields, text);
  }

  /** A snapshot (fingerprint and times only) for health checks. Times are `config.clock` values. */
  get state(): ProviderState {
    const held = this.#held;
    const refusal = this.#current();
    const backoffUntil = refusal === undefined ? undefined : this.config.clock.now() + (refusal.until - this.config.monotonic.now());
    return {
      ...(held ? { fingerprint: held.fingerprint, expiresAt: held.expiresAt, renewAt: held.renewAt } : {}),
      ...(backoffUntil === undefined ? {} : { backoffUntil }),
    };
  }

  /** Releases the HTTP layer's sockets when this provider built it. */
  close(): void {
    if (this.#ownsHttp) void this.#http.close();
  }

  /**
   * The held API token while it is usable (a background renewal started when
   * due), else `undefined`: then {@link getToken} asks E1.
   *
   * @internal
   */
  heldToken(): string | undefined {
    const held = this.#held;
    if (held === undefined) return undefined;
    const now = this.config.clock.now();
    if (now >= held.usableUntil) return undefined;
    if (now >= held.renewAt && this.config.monotonic.now() >= this.#renewalPausedUntil) this.#renewInBackground();
    return held.token;
  }

  #answered<T extends TokenReply>(reply: T, options: WithTokenOptions<T>): T {
    if (options.accepted === undefined) this.answered(reply);
    // The platform took our token: whatever we believed about our side is over.
    else if (options.accepted(reply)) this.#refusal = undefined;
    return reply;
  }

  #current(): Refusal | undefined {
    const refusal = this.#refusal;
    if (refusal !== undefined && this.config.monotonic.now() >= refusal.until) this.#refusal = undefined;
    return this.#refusal;
  }

  /** The error while backing off: any global refusal, or the one tied to `key` refused with `code`. */
  #blocked(key: string | undefined, code: number | undefined): PlatformError | undefined {
    const refusal = this.#current();
    if (refusal === undefined) return undefined;
    if (refusal.key === undefined) return refusal.error;
    return refusal.key === key && refusal.code === code ? refusal.error : undefined;
  }

  #refuse(error: PlatformError, key: string | undefined, code: number | undefined): void {
    this.#refusal = { error, key, code, until: this.config.monotonic.now() + CONFIGURATION_BACKOFF_MS };
  }

  /** Refused again after a reissue, so a configuration fault: one log line, no storm of E1 calls. */
  #refusedAgain<T extends TokenReply>(token: string, code: number, options: WithTokenOptions<T>, handedBack: boolean): PlatformError {
    const key = tokenKey(token);
    const active = this.#blocked(key, code);
    if (active !== undefined) return active;
    const error = errorForPlatformCode(code, options.endpoint);
    this.#refuse(error, key, code);
    const why = handedBack ? ' E1 handed the refused token back.' : '';
    const print = fingerprint(token);
    this.reportFault(
      error,
      { code, endpoint: options.endpoint, fingerprint: print, backoffMs: CONFIGURATION_BACKOFF_MS },
      options.logger,
      `${error.message}${why} No new token is asked for it for ${CONFIGURATION_BACKOFF_MS / 1000} s.`,
    );
    if (this.heard('token')) {
      this.#publishState({ state: 'refused', apiTokenFingerprint: print, type: 'failed', durationMs: 0, code, kind: error.kind });
    }
    return error;
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

  #issueShared(): Promise<string> {
    return this.#issues.share('E1', () => this.#issue());
  }

  #issue(): Promise<string> {
    if (!apiTokenChannel.hasSubscribers) return this.#issueUntraced(undefined);
    const reason = this.#held !== undefined ? 'renewal' : this.#everHeld ? 'reissue' : 'initial';
    const message: ApiTokenMessage = { reason };
    return trace(apiTokenChannel, message, () => this.#issueUntraced(message));
  }

  async #issueUntraced(message: ApiTokenMessage | undefined): Promise<string> {
    const started = performance.now();
    const now = this.config.clock.now();
    const previous = this.#held;
    let issued;
    try {
      issued = await requestApiToken(this.#http, this.config);
    } catch (error) {
      const failure = this.#failed(error, started);
      if (message !== undefined) {
        message.outcome = failure.kind === 'configuration' ? 'refused' : 'unavailable';
        if (failure.code !== undefined) message.code = failure.code;
        message.durationMs = performance.now() - started;
      }
      throw failure;
    }
    const { token, expiresInMs } = issued;
    const held = holdToken(token, fingerprint(token), now, expiresInMs, previous);
    const type = previous === undefined ? 'issued' : previous.token === token ? 'reused' : 'renewed';
    if (type === 'reused') this.#pauseRenewal();
    else this.#renewalMisses = 0;
    this.#held = held;
    if (this.#refusal?.key === undefined) this.#refusal = undefined;
    this.config.logger.info({ event: type, fingerprint: held.fingerprint, expiresAt: held.expiresAt }, `API token ${type}`);
    this.#everHeld = true;
    if (message === undefined && !this.heard('token')) return token;
    const durationMs = performance.now() - started;
    const expiresInS = Math.floor((held.expiresAt - this.config.clock.now()) / 1000);
    if (message !== undefined) Object.assign(message, { outcome: 'ok', apiTokenFingerprint: held.fingerprint, expiresInS, durationMs });
    if (this.heard('token')) {
      this.#publishState({
        state: type === 'renewed' ? 'renewed' : 'held', apiTokenFingerprint: held.fingerprint, expiresInS, type, expiresAt: held.expiresAt, durationMs,
      });
    }
    return token;
  }

  #publishState(message: ApiTokenStateMessage): void {
    this.tell('token', message);
  }

  #pauseRenewal(): void {
    this.#renewalMisses += 1;
    this.#renewalPausedUntil = this.config.monotonic.now() + renewalRetryDelayMs(this.#renewalMisses);
  }

  #failed(error: unknown, started: number): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', 'E1');
    // 40105, 41002: no E1 call for a while (no storm).
    if (failure.kind === 'configuration') this.#refuse(failure, undefined, undefined);
    const text = failure.kind === 'configuration' ? failure.message : `API token issuance failed: ${failure.message}`;
    this.reportFault(failure, { code: failure.code, endpoint: 'E1' }, this.config.logger, text);
    if (this.heard('token')) {
      this.#publishState({
        state: failure.kind === 'configuration' ? 'refused' : 'unavailable',
        ...(this.#held ? { apiTokenFingerprint: this.#held.fingerprint } : {}),
        type: 'failed',
        durationMs: performance.now() - started,
        ...(failure.code === undefined ? {} : { code: failure.code }),
        kind: failure.kind,
      });
    }
    return failure;
  }
}

/** The provider's `'token'` event: its view of the `api-token-state` channel's messages. */
const PROVIDER_VIEWS: ChannelViews<{ token: [TokenEvent] }> = {
  token: { channel: apiTokenStateChannel, read: (m: ApiTokenStateMessage) => tokenEventOf(m) },
};
