import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint, tokenKey } from '../hashing/fingerprint.js';
import { errorForPlatformCode, errorForRefusalOnOurSide, errorForTransportFault, isPlatformError, PlatformCode } from '../errors/index.js';
import { isApiTokenRejection } from './platform-body.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { isAbortedError } from './aborted.js';
import { apiHeaders, boundedContext, memberPath, type CallContext, type CallStats, type PlatformHttp, type PlatformReply, type PlatformRequest } from './platform-http.js';
import type { ApiTokenProvider } from './api-token-provider.js';
import type { TokenTrace } from './provider-types.js';
import type { TokenRunGuard } from './token-run-guard.js';
import { callChannel } from '../diagnostics/channels.js';
import type { CallMessage } from '../diagnostics/channels.js';
import type { Teller } from '../diagnostics/channel-view.js';

export type { CallContext } from './platform-http.js';

type Parse<T> = (reply: PlatformReply, endpoint: PlatformEndpoint) => T;

/** A call to send with the API token: everything but the headers, which carry it. */
export type ApiRequest = Omit<PlatformRequest, 'headers'>;

/** The call as sent: `request` with the headers that carry the API token (the same object while the token is). */
export function withApiHeaders(request: ApiRequest, headers: Record<string, string>): PlatformRequest {
  return { endpoint: request.endpoint, method: request.method, path: request.path, query: request.query, body: request.body, headers };
}

/** One operation's progress, for its `call` message: the HTTP layer counts its attempts, the provider names its API token. */
interface Progress extends CallStats, TokenTrace {
  readonly started: number;
}

/**
 * One platform operation within one budget (`totalTimeoutMs`, API-token
 * issuance included, or the context's deadline), sent on the platform's
 * paths with the headers that carry the API token: the body's code decides;
 * the API-token provider runs it with its token (refusal, one reissue, one
 * retry). Whether a 40000 blames our own API token is decided here, by the
 * guard, before the provider reads the answer. Each operation ends in one
 * `call` message (the client's `'call'` event and channel) and at most one
 * log line, through the provider's one throttle.
 */
export class ApiCall {
  /** `/member/v3.0/{game_id}`: E3 and the web-token check. */
  readonly memberPath: string;
  /** E2's path. */
  readonly verifyPath: string;
  /** The last API token's fingerprint: a SHA-256 per `call` message would be wasted. */
  #fingerprinted: { token: string; fingerprint: string } | undefined;
  /** The API token {@link #headers} carry. */
  #headersToken: string | undefined;
  /** Built once per API token: the transport reuses its merge with its own headers while the object is the same. */
  #headers: Record<string, string> = {};

  private readonly config: ResolvedPlatformConfig;
  private readonly http: PlatformHttp;
  private readonly provider: ApiTokenProvider;
  private readonly events: Teller<'call'> & { listenerCount(event: 'call'): number };
  private readonly guard?: TokenRunGuard;

  constructor(
    config: ResolvedPlatformConfig,
    http: PlatformHttp,
    provider: ApiTokenProvider,
    /** The client's: its `call` channel and event (an EventEmitter, so its listeners are counted here). */
    events: Teller<'call'> & { listenerCount(event: 'call'): number },
    guard?: TokenRunGuard,
  ) {
    this.config = config;
    this.http = http;
    this.provider = provider;
    this.events = events;
    this.guard = guard;
    this.memberPath = memberPath(config);
    this.verifyPath = `${this.memberPath}/token/verify`;
  }

  /**
   * A call authenticated with the API token (E2, E3). `subject` (the user
   * token, E2 only) lets the guard notice a run of 40000s; it counts the
   * token's digest, computed only for a 40000.
   */
  async callWithApiToken<T>(request: ApiRequest, parse: Parse<T>, subject?: string, context: CallContext = {}): Promise<T> {
    const { endpoint } = request;
    const progress: Progress = { started: performance.now(), attempts: 0 };
    // The budget is the operation's when it has one; made here only for a call made on its own.
    const ctx = boundedContext(context, this.config.totalTimeoutMs, progress.started);
    const guard = subject === undefined ? undefined : this.guard;
    try {
      // The common case in this frame: the held token, one answer, no refusal (no provider frame,
      // no closure, no options object).
      const first = this.provider.heldToken() ?? await this.provider.getToken(ctx);
      progress.apiToken = first;
      const answer = await this.http.request(withApiHeaders(request, first === this.#headersToken ? this.#headers : this.#headersFor(first)), progress, ctx);
      const blamed = guard === undefined ? false : this.#guarded(guard, answer, subject!, first, ctx);
      const ourSide = blamed instanceof Promise ? await blamed : blamed;
      let reply = answer;
      if (ourSide || isApiTokenRejection(answer.code)) reply = await this.#reissued(request, first, answer, ourSide, subject, ctx, progress);
      else this.provider.answered(answer);
      if (reply.code === PlatformCode.BAD_REQUEST && guard?.suspectsOurSide === true) {
        throw errorForRefusalOnOurSide(reply.code);
      }
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  /**
   * The first answer refused our API token (40101/40103, or a 40000 the
   * guard blames on our side): the provider reissues it and the call runs
   * once more, the guard reading that answer too.
   */
  async #reissued(
    request: ApiRequest, first: string, answer: PlatformReply, blamed: boolean, subject: string | undefined, ctx: CallContext, progress: Progress,
  ): Promise<PlatformReply> {
    const guard = subject === undefined ? undefined : this.guard;
    /** Set by the guard after an answer, before the provider reads it. */
    let ourSide = blamed;
    const attempt = async (apiToken: string): Promise<PlatformReply> => {
      const again = await this.http.request(withApiHeaders(request, this.#headersFor(apiToken)), progress, ctx);
      ourSide = guard === undefined ? false : await this.#guarded(guard, again, subject!, apiToken, ctx);
      return again;
    };
    return this.provider.settle(first, answer, attempt, {
      endpoint: request.endpoint, deadline: ctx.deadline, signal: ctx.signal, trace: progress, logger: this.config.logger,
      refusal: (reply: PlatformReply) => (isApiTokenRejection(reply.code) || ourSide ? reply.code : undefined),
    });
  }

  /** The headers for `apiToken`: the same object while the token is the same. Never change it. */
  #headersFor(apiToken: string): Record<string, string> {
    if (apiToken !== this.#headersToken) {
      this.#headersToken = apiToken;
      this.#headers = apiHeaders(this.config, apiToken);
    }
    return this.#headers;
  }

  /**
   * The guard's reading of an E2 answer: a success only resets its run, if
   * any (no promise); a 40000 may make it probe our own API token. True when the
   * 40000 is blamed on our side.
   */
  #guarded(guard: TokenRunGuard, answer: PlatformReply, subject: string, apiToken: string, ctx: CallContext): boolean | Promise<boolean> {
    if (answer.code === PlatformCode.BAD_REQUEST) return guard.ourFault(answer.code, tokenKey(subject), apiToken, ctx);
    // The common success, with no run counted and nothing suspected, has nothing to reset.
    if (answer.code === PlatformCode.SUCCESS && !guard.quiet) guard.success();
    return false;
  }

  /** A call authenticated by the request itself (the web token). */
  async callWithoutApiToken<T>(request: PlatformRequest, parse: Parse<T>, context: CallContext = {}): Promise<T> {
    const { endpoint } = request;
    const progress: Progress = { started: performance.now(), attempts: 0 };
    try {
      const reply = await this.http.request(request, progress, context);
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  #settle<T>(endpoint: PlatformEndpoint, reply: PlatformReply, parse: Parse<T>, progress: Progress): T {
    if (reply.code !== PlatformCode.SUCCESS) throw errorForPlatformCode(reply.code, endpoint);
    const result = parse(reply, endpoint);
    // `heard('call')` read in place (the channel's flag, the client's listeners): every call's
    // success path asks it, and nothing of ours needs to run for the answer.
    if (callChannel.hasSubscribers || this.events.listenerCount('call') > 0) this.events.tell('call', { endpoint, outcome: 'success', code: reply.code, ...this.#measure(progress) } satisfies CallMessage);
    return result;
  }

  #failed(endpoint: PlatformEndpoint, error: unknown, progress: Progress): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', endpoint);
    const outcome = failure.status >= 500 ? 'failed' : 'rejected';
    if (this.events.heard('call')) {
      this.events.tell('call', { endpoint, outcome, kind: failure.kind, ...(failure.code === undefined ? {} : { code: failure.code }), ...this.#measure(progress) } satisfies CallMessage);
    }
    const fields = { endpoint, kind: failure.kind, code: failure.code, attempts: progress.attempts };
    // A call given up by its caller is nobody's fault: not worth a line.
    if (outcome === 'rejected' || isAbortedError(failure)) this.config.logger.debug(fields, failure.message);
    else this.provider.reportFault(failure, fields, this.config.logger);
    return failure;
  }

  #fingerprint(token: string): string {
    if (this.#fingerprinted?.token !== token) this.#fingerprinted = { token, fingerprint: fingerprint(token) };
    return this.#fingerprinted.fingerprint;
  }

  #measure(progress: Progress): Pick<CallMessage, 'durationMs' | 'attempts' | 'tokenFingerprint' | 'reissued'> {
    const { apiToken, reissued } = progress;
    return {
      durationMs: performance.now() - progress.started,
      attempts: progress.attempts,
      ...(apiToken === undefined ? {} : { tokenFingerprint: this.#fingerprint(apiToken) }),
      ...(reissued === true ? { reissued: true } : {}),
    };
  }
}
