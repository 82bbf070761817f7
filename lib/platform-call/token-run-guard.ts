import { performance } from 'node:perf_hooks';
import type { ResolvedPlatformConfig } from '../config/index.js';
import { fingerprint } from '../hashing/fingerprint.js';
import { PlatformCode } from '../errors/index.js';
import { isApiTokenRejection } from './platform-body.js';
import { apiHeaders, memberPath } from './platform-http.js';
import type { CallContext, PlatformHttp, PlatformRequest } from './platform-http.js';
import type { MonotonicClock } from '../time/monotonic.js';
import type { ProbeMessage, ProbeOutcome } from '../diagnostics/channels.js';
import type { Teller } from '../diagnostics/channel-view.js';

/** Distinct user tokens refused with 40000 in a row (no success between) that make us check our own API token. */
export const INVALID_TOKEN_RUN_LENGTH = 20;
/** The run must happen within this window; and our API token is checked at most once per window. */
export const INVALID_TOKEN_RUN_WINDOW_MS = 10_000;

export type { ProbeOutcome } from '../diagnostics/channels.js';

/** Payload of the client's `'probe'` event: the `probe` channel's message. Never holds a token, only the API token's fingerprint. */
export type ProbeEvent = ProbeMessage;

/** Counts 40000s of distinct tokens with no success in between; time from `clock`, no timer. */
class RunCounter {
  readonly #keys = new Set<string>();
  #since = 0;
  #lastProbe = -Infinity;

  private readonly clock: MonotonicClock;
  private readonly length: number;
  private readonly windowMs: number;

  constructor(clock: MonotonicClock, length: number, windowMs: number) {
    this.clock = clock;
    this.length = length;
    this.windowMs = windowMs;
  }

  success(): void {
    if (this.#keys.size > 0) this.#keys.clear();
  }

  /** Records a refused token (by key); the run's size when a probe is due, else 0. */
  refused(key: string): number {
    const now = this.clock.now();
    if (this.#keys.size === 0 || now - this.#since > this.windowMs) {
      this.#keys.clear();
      this.#since = now;
    }
    this.#keys.add(key);
    if (this.#keys.size < this.length) return 0;
    const size = this.#keys.size;
    this.#keys.clear();
    if (now - this.#lastProbe < this.windowMs) return 0;
    this.#lastProbe = now;
    return size;
  }
}

const VERDICT: Record<ProbeOutcome, { level: 'error' | 'info'; text: string }> = {
  api_token_refused: { level: 'error', text: 'and the platform refuses our API token too (E3 probe): the API token is dropped and reissued; if this repeats, check PLATFORM_CLIENT_ID, PLATFORM_GAME_ID and the environment.' },
  request_refused: { level: 'error', text: 'and a well-formed member lookup with our API token is refused too (E3 probe, 40000): our requests to the platform look malformed (Authorization or caller-id); the API token is reissued. This is a server-side fault, not the players\'.' },
  api_token_ok: { level: 'info', text: 'our API token works (E3 probe): the user tokens really are invalid.' },
  inconclusive: { level: 'info', text: 'the E3 probe of our API token did not answer usefully; checking again on the next run.' },
};

/**
 * The platform's 40000 also covers a bad Authorization value on our side. When many
 * distinct user tokens are refused in a row, check our own API token with one
 * E3 lookup before blaming every player; at most once per window, one log
 * line and one `probe` channel message (the client's `'probe'` event) per check.
 */
export class TokenRunGuard {
  readonly #run: RunCounter;
  #suspect = false;
  /**
   * True while no 40000 was counted since the last success and nothing is
   * suspected: a success then has nothing to reset. A plain field, read on
   * every E2 success instead of calling {@link success}. Read it, never write it.
   */
  quiet = true;

  private readonly config: ResolvedPlatformConfig;
  private readonly http: PlatformHttp;
  private readonly events: Teller<'probe'>;

  constructor(
    config: ResolvedPlatformConfig,
    http: PlatformHttp,
    /** The client's: its `probe` channel and event. */
    events: Teller<'probe'>,
  ) {
    this.config = config;
    this.http = http;
    this.events = events;
    this.#run = new RunCounter(config.monotonic, INVALID_TOKEN_RUN_LENGTH, INVALID_TOKEN_RUN_WINDOW_MS);
  }

  /**
   * True from a probe that blamed our own API token or requests until an E2
   * success or a probe that finds our token fine: meanwhile a 40000 is not
   * the player's fault and must not send them to log in again.
   */
  get suspectsOurSide(): boolean {
    return this.#suspect;
  }

  /** Sees an E2 success: the run of refusals, and any suspicion of our own side, is over. */
  success(): void {
    this.#run.success();
    this.#suspect = false;
    this.quiet = true;
  }

  /**
   * Sees an E2 answer for the user token `subject` (its key). Resolves true
   * when a probe just found our own API token or request at fault.
   */
  async ourFault(code: number, subject: string, apiToken: string, context: CallContext): Promise<boolean> {
    if (code === PlatformCode.SUCCESS) {
      this.success();
      return false;
    }
    if (code !== PlatformCode.BAD_REQUEST) return false;
    this.quiet = false;
    const distinct = this.#run.refused(subject);
    if (distinct === 0) return false;
    const outcome = await this.#probe(apiToken, context, distinct);
    if (outcome === 'api_token_ok') this.#suspect = false;
    const ours = outcome === 'api_token_refused' || outcome === 'request_refused';
    if (ours) this.#suspect = true;
    return ours;
  }

  async #probe(apiToken: string, context: CallContext, distinctTokens: number): Promise<ProbeOutcome> {
    const started = performance.now();
    let outcome: ProbeOutcome = 'inconclusive';
    let code: number | undefined;
    try {
      const reply = await this.http.request(this.#probeRequest(apiToken), undefined, { deadline: context.deadline });
      code = reply.code;
      if (code === PlatformCode.SUCCESS) outcome = 'api_token_ok';
      else if (isApiTokenRejection(code)) outcome = 'api_token_refused';
      else if (code === PlatformCode.BAD_REQUEST) outcome = 'request_refused';
    } catch {
      // A transport fault tells nothing about our token.
    }
    const tokenFingerprint = fingerprint(apiToken);
    const durationMs = performance.now() - started;
    const { level, text } = VERDICT[outcome];
    this.config.logger[level](
      { endpoint: 'E2', distinctTokens, probe: 'E3', outcome, code, fingerprint: tokenFingerprint },
      `${distinctTokens} distinct user tokens were refused (40000) in a row; ${text}`,
    );
    if (this.events.heard('probe')) {
      this.events.tell('probe', { reason: 'invalid_token_run', distinctTokens, outcome, ...(code === undefined ? {} : { code }), durationMs, tokenFingerprint } satisfies ProbeMessage);
    }
    return outcome;
  }

  // 40000 can also mean our own Authorization value is bad: any well-formed lookup tells whether the platform accepts our API token.
  #probeRequest(apiToken: string): PlatformRequest {
    return { endpoint: 'E3', method: 'GET', path: memberPath(this.config), query: { search_type: 'member_no', value: '1' }, headers: apiHeaders(this.config, apiToken) };
  }
}
