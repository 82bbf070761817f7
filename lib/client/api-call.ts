import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint } from '../config/index.js';
import { errorForPlatformCode, errorForRefusalOnOurSide, errorForTransportFault, isApiTokenRejection, isPlatformError, PlatformCode } from '../errors/index.js';
import type { PlatformEndpoint, PlatformError } from '../errors/index.js';
import type { CallStats, PlatformHttp, PlatformReply, PlatformRequest } from '../http/index.js';
import type { ApiTokenProvider } from '../provider/index.js';
import { CONFIGURATION_BACKOFF_MS } from '../provider/index.js';
import type { CallEvent } from './client-options.js';
import { LogThrottle } from './log-throttle.js';
import type { TokenRunGuard } from './token-run-guard.js';

type Parse<T> = (reply: PlatformReply, endpoint: PlatformEndpoint) => T;
type Build = (apiToken: string) => PlatformRequest;

interface Progress {
  started: number;
  stats: CallStats;
  apiToken?: string;
  reissued?: boolean;
  /** The provider already logged this failure (E1, or trap 13). */
  loggedByProvider?: boolean;
}

/**
 * One platform operation within one budget (`totalTimeoutMs`, API-token
 * issuance included): the body's code decides, 40101/40103 lead to one
 * reissue and one retry (never more), and each operation ends in one `'call'`
 * event and at most one (throttled) log line.
 */
export class ApiCall {
  readonly #throttle: LogThrottle;
  /** The last API token's fingerprint: a SHA-256 per 'call' event would be wasted. */
  #fingerprinted: { token: string; fingerprint: string } | undefined;

  constructor(
    private readonly config: ResolvedPlatformConfig,
    private readonly http: PlatformHttp,
    private readonly provider: ApiTokenProvider,
    private readonly emit: (event: CallEvent) => void,
    private readonly guard?: TokenRunGuard,
  ) {
    this.#throttle = new LogThrottle(config.clock, CONFIGURATION_BACKOFF_MS);
  }

  /**
   * A call authenticated with the API token (E2, E3). `subject` (the user
   * token's key, E2 only) lets the guard notice a run of 40000s (trap 14).
   */
  async run<T>(endpoint: PlatformEndpoint, build: Build, parse: Parse<T>, subject?: string, outerDeadline?: number): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 } };
    const deadline = Math.min(outerDeadline ?? Infinity, progress.started + this.config.totalTimeoutMs);
    try {
      progress.loggedByProvider = true;
      const apiToken = await this.provider.getToken({ deadline });
      progress.loggedByProvider = false;
      progress.apiToken = apiToken;
      let reply = await this.http.request({ ...build(apiToken), deadline }, progress.stats);
      let ourFault = isApiTokenRejection(reply.code);
      if (!ourFault && subject !== undefined && this.guard !== undefined) {
        ourFault = await this.guard.ourFault(reply.code, subject, apiToken, deadline);
      }
      // 40101/40103 (or a probe blaming our token): one reissue, one retry, never more.
      if (ourFault) reply = await this.#reissueAndRetry(endpoint, build, progress, deadline);
      if (reply.code === PlatformCode.BAD_REQUEST && subject !== undefined && this.guard?.suspectsOurSide === true) {
        throw errorForRefusalOnOurSide(reply.code);
      }
      return this.#settle(endpoint, reply, parse, progress);
    } catch (error) {
      throw this.#failed(endpoint, error, progress);
    }
  }

  async #reissueAndRetry(endpoint: PlatformEndpoint, build: Build, progress: Progress, deadline: number): Promise<PlatformReply> {
    const rejected = progress.apiToken as string;
    progress.reissued = true;
    progress.loggedByProvider = true;
    const fresh = await this.provider.reissue(rejected, { deadline });
    progress.loggedByProvider = false;
    progress.apiToken = fresh;
    const reply = await this.http.request({ ...build(fresh), deadline }, progress.stats);
    if (isApiTokenRejection(reply.code)) {
      progress.loggedByProvider = true;
      throw this.provider.rejectedAfterReissue(fresh, reply.code, endpoint, fresh === rejected);
    }
    return reply;
  }

  /** A call authenticated by the request itself (the web token). */
  async runPlain<T>(endpoint: PlatformEndpoint, request: PlatformRequest, parse: Parse<T>): Promise<T> {
    const progress: Progress = { started: performance.now(), stats: { attempts: 0 } };
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
    this.emit({ endpoint, outcome: 'success', code: reply.code, ...this.#measure(progress) });
    return result;
  }

  #failed(endpoint: PlatformEndpoint, error: unknown, progress: Progress): PlatformError {
    const failure = isPlatformError(error) ? error : errorForTransportFault('network', endpoint);
    const outcome = failure.status >= 500 ? 'failed' : 'rejected';
    this.emit({
      endpoint, outcome, kind: failure.kind, ...(failure.code === undefined ? {} : { code: failure.code }), ...this.#measure(progress),
    });
    const fields = { endpoint, kind: failure.kind, code: failure.code, attempts: progress.stats.attempts };
    if (progress.loggedByProvider === true) {
      // One clear line per fault: the provider has logged it.
    } else if (outcome === 'rejected') {
      this.config.logger.debug(fields, failure.message);
    } else if (this.#throttle.allow(`${endpoint}:${failure.kind}:${failure.code ?? ''}`)) {
      if (failure.kind === 'configuration') this.config.logger.error(fields, failure.message);
      else this.config.logger.warn(fields, failure.message);
    }
    return failure;
  }

  #fingerprint(token: string): string {
    if (this.#fingerprinted?.token !== token) this.#fingerprinted = { token, fingerprint: fingerprint(token) };
    return this.#fingerprinted.fingerprint;
  }

  #measure(progress: Progress): Pick<CallEvent, 'durationMs' | 'attempts' | 'tokenFingerprint' | 'reissued'> {
    return {
      durationMs: performance.now() - progress.started,
      attempts: progress.stats.attempts,
      ...(progress.apiToken === undefined ? {} : { tokenFingerprint: this.#fingerprint(progress.apiToken) }),
      ...(progress.reissued ? { reissued: true } : {}),
    };
  }
}
