import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint, tokenKey } from '../hashing/fingerprint.js';
import { errorForPlatformCode, errorForRefusalOnOurSide, errorForTransportFault, isApiTokenRejection, isPlatformError, PlatformCode } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { isAbortedError } from '../http/index.js';
import type { CallContext, CallStats, PlatformHttp, PlatformReply, PlatformRequest } from '../http/index.js';
import type { ApiTokenProvider, TokenTrace } from '../provider/index.js';
import type { CallEvent } from './client-options.js';
import type { TokenRunGuard } from './token-run-guard.js';
import type { CallMessage } from '../diagnostics/channels.js';
import type { Teller } from '../diagnostics/channel-view.js';

export type { CallContext } from '../http/index.js';

type Parse<T> = (reply: PlatformReply, endpoint: PlatformEndpoint) => T;
type Build = (apiToken: string) => PlatformRequest;

interface Progress {
  started: number;
  stats: CallStats;
  trace: TokenTrace;
}

/**
 * One platform operation within one budget (`totalTimeoutMs`, API-token
 * issuance included, or the context's deadline): the body's code decides;
 * the API-token provider runs it with its token (refusal, one reissue, one
 * retry). Whether a 40000 blames our own API token is decided here, by the
 * guard, before the provider reads the answer. Each operation ends in one
 * `call` message (the client's `'call'` event and channel) and at most one
 * log line, through the provider's one throttle.
 */
export class ApiCall {
  /** The last API token's fingerprint: a SHA-256 per `call` message would be wasted. */
  #fingerprinted: { token: string; fingerprint: string } | undefined;

  constructor(
    private readonly config: ResolvedPlatformConfig,
    private readonly http: PlatformHttp,
    private readonly provider: ApiTokenProvider,
    /** The client's: its `call` channel and event. */
    private readonly events: Teller<'call'>,
    private readonly guard?: TokenRunGuard,
  ) {}

  /**
   * A call authenticated with the API token (E2, E3). `subject` (the user
   * token, E2 only) lets the guard notice a run of 40000s; it counts the
   * token's digest, computed only for a 40000.
   */
  async run<T>(endpoint: PlatformEndpoint, build: Build, parse: Parse<T>, subject?: string, context: CallContext = {}): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 }, trace: {} };
    // The budget is the operation's when it has one; computed here only for a call made on its own.
    const ctx = context.deadline !== undefined ? context : { deadline: progress.started + this.config.totalTimeoutMs, signal: context.signal };
    const guard = subject === undefined ? undefined : this.guard;
    /** Set by the guard after an answer, before the provider reads it. */
    let ourSide = false;
    try {
      const reply = await this.provider.withToken(
        async (apiToken) => {
          ourSide = false;
          const answer = await this.http.request(build(apiToken), progress.stats, ctx);
          // A success only resets the guard's run, synchronously; a 40000 may make it probe.
          if (guard !== undefined && answer.code === PlatformCode.SUCCESS) guard.success();
          else if (guard !== undefined && answer.code === PlatformCode.BAD_REQUEST) ourSide = await guard.ourFault(answer.code, tokenKey(subject!), apiToken, ctx);
          return answer;
        },
        {
          endpoint, deadline: ctx.deadline, signal: ctx.signal, trace: progress.trace, logger: this.config.logger,
          refusal: guard === undefined ? undefined : (answer: PlatformReply) => (isApiTokenRejection(answer.code) || ourSide ? answer.code : undefined),
        },
      );
      if (reply.code === PlatformCode.BAD_REQUEST && guard?.suspectsOurSide === true) {
        throw errorForRefusalOnOurSide(reply.code);
      }
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  /** A call authenticated by the request itself (the web token). */
  async runWithoutApiToken<T>(endpoint: PlatformEndpoint, request: PlatformRequest, parse: Parse<T>, context: CallContext = {}): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 }, trace: {} };
    try {
      const reply = await this.http.request(request, progress.stats, context);
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  #settle<T>(endpoint: PlatformEndpoint, reply: PlatformReply, parse: Parse<T>, progress: Progress): T {
    if (reply.code !== PlatformCode.SUCCESS) throw errorForPlatformCode(reply.code, endpoint);
    const result = parse(reply, endpoint);
    if (this.events.heard('call')) this.events.tell('call', { endpoint, outcome: 'success', code: reply.code, ...this.#measure(progress) } satisfies CallMessage);
    return result;
  }

  #failed(endpoint: PlatformEndpoint, error: unknown, progress: Progress): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', endpoint);
    const outcome = failure.status >= 500 ? 'failed' : 'rejected';
    if (this.events.heard('call')) {
      this.events.tell('call', { endpoint, outcome, kind: failure.kind, ...(failure.code === undefined ? {} : { code: failure.code }), ...this.#measure(progress) } satisfies CallMessage);
    }
    const fields = { endpoint, kind: failure.kind, code: failure.code, attempts: progress.stats.attempts };
    // A call given up by its caller is nobody's fault: not worth a line.
    if (outcome === 'rejected' || isAbortedError(failure)) this.config.logger.debug(fields, failure.message);
    else this.provider.reportFault(failure, fields, this.config.logger);
    return failure;
  }

  #fingerprint(token: string): string {
    if (this.#fingerprinted?.token !== token) this.#fingerprinted = { token, fingerprint: fingerprint(token) };
    return this.#fingerprinted.fingerprint;
  }

  #measure(progress: Progress): Pick<CallEvent, 'durationMs' | 'attempts' | 'tokenFingerprint' | 'reissued'> {
    const { apiToken, reissued } = progress.trace;
    return {
      durationMs: performance.now() - progress.started,
      attempts: progress.stats.attempts,
      ...(apiToken === undefined ? {} : { tokenFingerprint: this.#fingerprint(apiToken) }),
      ...(reissued === true ? { reissued: true } : {}),
    };
  }
}
