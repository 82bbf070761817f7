import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint } from '../hashing/fingerprint.js';
import { errorForPlatformCode, errorForRefusalOnOurSide, errorForTransportFault, isApiTokenRejection, isPlatformError, PlatformCode } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import { isAbortedError } from '../http/index.js';
import type { Abortable, CallStats, PlatformHttp, PlatformReply, PlatformRequest } from '../http/index.js';
import type { ApiTokenProvider, TokenTrace } from '../provider/index.js';
import type { CallEvent } from './client-options.js';
import type { TokenRunGuard } from './token-run-guard.js';
import { callChannel } from '../diagnostics/channels.js';
import type { CallMessage } from '../diagnostics/channels.js';
import { inScope } from '../diagnostics/scope.js';
import type { Scope } from '../diagnostics/scope.js';

type Parse<T> = (reply: PlatformReply, endpoint: PlatformEndpoint) => T;
type Build = (apiToken: string) => PlatformRequest;

interface Progress {
  started: number;
  stats: CallStats;
  trace: TokenTrace;
}

/** Where a call comes from: its budget and its caller's signal. */
export interface CallContext {
  /** `performance.now()` time by which the call must end (within `totalTimeoutMs`). */
  deadline?: number;
  /** The caller's signal: when its client has gone, the call is dropped. */
  signal?: Abortable;
}

/**
 * One platform operation within one budget (`totalTimeoutMs`, API-token
 * issuance included): the body's code decides; the API-token provider runs
 * it with its token (refusal, one reissue, one retry) and alone decides
 * whether a fault is ours. Each operation ends in one `call` channel message
 * (in the client's scope: its `'call'` event) and at most one log line,
 * through the provider's one throttle.
 */
export class ApiCall {
  /** The last API token's fingerprint: a SHA-256 per `call` message would be wasted. */
  #fingerprinted: { token: string; fingerprint: string } | undefined;

  constructor(
    private readonly config: ResolvedPlatformConfig,
    private readonly http: PlatformHttp,
    private readonly provider: ApiTokenProvider,
    /** The client's: tags its `call` messages. */
    private readonly scope: Scope,
    private readonly guard?: TokenRunGuard,
  ) {}

  /**
   * A call authenticated with the API token (E2, E3). `subject` (the user
   * token's key, E2 only) lets the guard notice a run of 40000s.
   */
  async run<T>(endpoint: PlatformEndpoint, build: Build, parse: Parse<T>, subject?: string, context: CallContext = {}): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 }, trace: {} };
    const deadline = Math.min(context.deadline ?? Infinity, progress.started + this.config.totalTimeoutMs);
    const { signal } = context;
    try {
      const reply = await this.provider.withToken(
        (apiToken) => this.http.request({ ...build(apiToken), deadline, signal }, progress.stats),
        {
          endpoint, deadline, signal, trace: progress.trace, logger: this.config.logger,
          refusal: (answer, apiToken) => this.#refusal(answer, subject, apiToken, deadline),
        },
      );
      if (reply.code === PlatformCode.BAD_REQUEST && subject !== undefined && this.guard?.suspectsOurSide === true) {
        throw errorForRefusalOnOurSide(reply.code);
      }
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  /** 40101/40103, or a probe blaming our token after a run of 40000s: our API token was refused. */
  async #refusal(reply: PlatformReply, subject: string | undefined, apiToken: string, deadline: number): Promise<number | undefined> {
    if (isApiTokenRejection(reply.code)) return reply.code;
    if (subject === undefined || this.guard === undefined) return undefined;
    return (await this.guard.ourFault(reply.code, subject, apiToken, deadline)) ? reply.code : undefined;
  }

  /** A call authenticated by the request itself (the web token). */
  async runWithoutApiToken<T>(endpoint: PlatformEndpoint, request: PlatformRequest, parse: Parse<T>): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 }, trace: {} };
    try {
      const reply = await this.http.request(request, progress.stats);
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  #settle<T>(endpoint: PlatformEndpoint, reply: PlatformReply, parse: Parse<T>, progress: Progress): T {
    if (reply.code !== PlatformCode.SUCCESS) throw errorForPlatformCode(reply.code, endpoint);
    const result = parse(reply, endpoint);
    if (callChannel.hasSubscribers) this.#publish({ endpoint, outcome: 'success', code: reply.code, ...this.#measure(progress) });
    return result;
  }

  #failed(endpoint: PlatformEndpoint, error: unknown, progress: Progress): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', endpoint);
    const outcome = failure.status >= 500 ? 'failed' : 'rejected';
    if (callChannel.hasSubscribers) {
      this.#publish({ endpoint, outcome, kind: failure.kind, ...(failure.code === undefined ? {} : { code: failure.code }), ...this.#measure(progress) });
    }
    const fields = { endpoint, kind: failure.kind, code: failure.code, attempts: progress.stats.attempts };
    // A call given up by its caller is nobody's fault: not worth a line.
    if (outcome === 'rejected' || isAbortedError(failure)) this.config.logger.debug(fields, failure.message);
    else this.provider.reportFault(failure, fields, this.config.logger);
    return failure;
  }

  #publish(message: CallMessage): void {
    callChannel.publish(inScope(message, this.scope));
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
