import * as diagnosticsChannel from 'node:diagnostics_channel';
import type { ErrorKind, PlatformEndpoint } from '../errors/index.js';

/**
 * Names of the channels the package publishes on, in the style of undici and
 * ioredis (`<package>:<subject>`). Tracing channels carry start/end/asyncStart/
 * asyncEnd/error events around one operation; plain channels carry one
 * message per event. Payloads hold endpoints, outcomes, codes, attempts,
 * durations (ms, monotonic) and 8-hex fingerprints: never a token or a secret.
 * Each fact is published once, here; the client's and the provider's events
 * (`'call'`, `'circuit'`, `'probe'`, `'token'`) are views of the `call`,
 * `circuit`, `probe` and `api-token-state` channels, filtered to one instance.
 *
 * @example
 * ```ts
 * import diagnosticsChannel from 'node:diagnostics_channel';
 * import { CHANNELS, type VerifyMessage } from 'passport-game-platform';
 * diagnosticsChannel.tracingChannel<VerifyMessage, VerifyMessage>(CHANNELS.verify).subscribe({
 *   start() {},
 *   end() {},
 *   asyncStart() {},
 *   asyncEnd(message) { console.log(message.outcome, message.durationMs); },
 *   error() {},
 * });
 * ```
 */
export const CHANNELS = {
  /** Tracing: one user-token verification (E2 or web token), cache hits included. */
  verify: 'passport-game-platform:verify',
  /** Tracing: one API-token issue or renewal (E1). */
  apiToken: 'passport-game-platform:api-token',
  /** Tracing: one HTTP attempt to the platform (E1, E2, E3). */
  platformCall: 'passport-game-platform:platform-call',
  /** Event: one client operation ended (E2, E3 or web; a cache answer too). The client's `'call'` event. */
  call: 'passport-game-platform:call',
  /** Event: the circuit breaker changed state. The client's `'circuit'` event. */
  circuit: 'passport-game-platform:circuit',
  /** Event: a run of 40000s made the client check its own API token with one E3 lookup. The client's `'probe'` event. */
  probe: 'passport-game-platform:probe',
  /** Event: a verification-cache lookup (hit or miss). */
  cache: 'passport-game-platform:cache',
  /** Event: a user token was revoked (here or by another instance). */
  revocation: 'passport-game-platform:revocation',
  /** Event: a live connection ended (realtime adapters). */
  connection: 'passport-game-platform:connection',
  /** Event: a revocation or session end made on another instance was applied here. */
  sessionEnd: 'passport-game-platform:session-end',
  /** Event: a verification was answered from the outage grace (the platform being down). */
  outageGrace: 'passport-game-platform:outage-grace',
  /** Event: the API token was issued, renewed, refused, dropped, or E1 failed. The provider's `'token'` event. */
  apiTokenState: 'passport-game-platform:api-token-state',
} as const;

/** How a verification ended, on the `verify` channel. */
export type VerifyOutcome = 'ok' | 'invalid_token' | 'device_not_registered' | 'unavailable' | 'server_error' | 'aborted';

/** Context of the `verify` tracing channel. */
export interface VerifyMessage {
  kind: 'E2' | 'web';
  tokenFingerprint: string;
  cached?: boolean;
  outcome?: VerifyOutcome;
  code?: number;
  durationMs?: number;
}

/** Context of the `api-token` tracing channel. */
export interface ApiTokenMessage {
  reason: 'initial' | 'renewal' | 'reissue';
  apiTokenFingerprint?: string;
  expiresInS?: number;
  outcome?: 'ok' | 'refused' | 'unavailable';
  code?: number;
  durationMs?: number;
}

/** Context of the `platform-call` tracing channel (one per attempt). */
export interface PlatformCallMessage {
  /** `web`: the web-token check (`GET /member/...` with the web token as bearer). */
  endpoint: 'E1' | 'E2' | 'E3' | 'web';
  method: 'GET' | 'POST';
  host: string;
  path: string;
  attempt: number;
  statusCode?: number;
  code?: number;
  outcome?: 'ok' | 'refused' | 'fault' | 'timeout' | 'aborted';
  durationMs?: number;
}

/**
 * Message of the `call` channel (and payload of the client's `'call'`
 * event), one per platform operation. `outcome`: `success`; `rejected` (the
 * platform refused the user token or query: 4xx); `failed` (platform or
 * configuration fault: 5xx).
 */
export interface CallMessage {
  endpoint: PlatformEndpoint;
  outcome: 'success' | 'rejected' | 'failed';
  code?: number;
  kind?: ErrorKind;
  durationMs: number;
  /** HTTP attempts, retries and the retry after an API-token reissue included; 0 for a cache hit. */
  attempts: number;
  /** Fingerprint of the API token used last (never a user token). */
  tokenFingerprint?: string;
  /** True when the answer came from the result cache. */
  cached?: boolean;
  /** True when the API token was reissued after 40101/40103. */
  reissued?: boolean;
}

/**
 * Message of the `circuit` channel, one per state change of a circuit
 * breaker. Times are monotonic (`config.monotonic.now()`) values. The
 * client's `'circuit'` event carries the same fields but `reason`.
 */
export interface CircuitMessage {
  state: 'open' | 'half-open' | 'closed';
  previous: 'open' | 'half-open' | 'closed';
  /** Consecutive failed calls counted when the circuit opened. */
  failures: number;
  /** Set when `state` is `open`: calls are refused until then. */
  openUntil?: number;
  /** The call that caused the change. */
  endpoint: PlatformEndpoint;
  /** `E2: closed -> open`, for a log line. */
  reason: string;
}

/**
 * What the E3 probe of our own API token found:
 * - `api_token_ok`: E3 answered 0, so the user tokens really are invalid;
 * - `api_token_refused`: E3 answered 40101/40103, so our API token is bad (it is reissued);
 * - `request_refused`: E3 answered 40000 to a well-formed lookup, so our requests are malformed (the token is reissued);
 * - `inconclusive`: the probe failed (transport fault, other code).
 */
export type ProbeOutcome = 'api_token_ok' | 'api_token_refused' | 'request_refused' | 'inconclusive';

/** Message of the `probe` channel (and payload of the client's `'probe'` event). Only the API token's fingerprint. */
export interface ProbeMessage {
  reason: 'invalid_token_run';
  /** Distinct user tokens refused in the run that led to the probe. */
  distinctTokens: number;
  outcome: ProbeOutcome;
  /** E3's code, when it answered one. */
  code?: number;
  durationMs: number;
  tokenFingerprint: string;
}

/** Message of the `cache` channel: one verification-cache lookup. */
export interface CacheMessage { kind: 'E2' | 'web'; hit: boolean; store: 'memory' | 'shared' }
/** Message of the `revocation` channel: a token revoked here (`local`) or by another instance (`remote`). */
export interface RevocationMessage { tokenFingerprint: string; origin: 'local' | 'remote' }
/**
 * Why this instance ended a live session on purpose (never the player's own
 * close): the game's logout (`logout`, wherever it was made), an
 * administrator or a ban (`admin`), no successful re-verification within the
 * re-verification grace (`expired`), the token found revoked when verified
 * again (`revoked`), the platform refusing it (`refused`: 40000, 46217, a
 * denial, another member's token on refresh), the server going down
 * (`shutdown`), or the peer breaking a byte bound (`bound`).
 */
export type SessionEndCause = 'logout' | 'admin' | 'expired' | 'revoked' | 'refused' | 'shutdown' | 'bound';

/**
 * Message of the `connection` channel: a live connection ended, with why and
 * after how long; `ended` is set when this instance ended it on purpose.
 */
export interface ConnectionMessage { transport: 'ws' | 'socket.io' | 'colyseus'; memberNo: string; reason: string; durationMs: number; ended?: SessionEndCause }

/**
 * Message of the `session-end` channel: a revocation (`token`) or member end
 * made on another instance was applied here, `lagMs` after it was made (the
 * other instance's `Date.now()` at the time, against this one's).
 */
export interface SessionEndMessage { kind: 'token' | 'member'; reason: string; lagMs: number }

/** Message of the `outage-grace` channel: one request or handshake served in grace. */
export interface OutageGraceMessage { kind: 'E2' | 'web' }

/**
 * Message of the `api-token-state` channel. `state`: `held` (E1 gave a
 * token, a new one or the held one back), `renewed` (a new token replaced a
 * held one), `refused` (the platform refused our credentials or, after a
 * reissue, our token again), `unavailable` (E1 failed otherwise; a held
 * token is still served), `dropped` (a refused token was dropped before a
 * reissue). `type` is what the provider's `'token'` event reports (absent on
 * `dropped`, which has no event).
 */
export interface ApiTokenStateMessage {
  state: 'held' | 'renewed' | 'refused' | 'unavailable' | 'dropped';
  /** The token held, renewed, refused or dropped (on a failed E1 call: the one still held, if any). */
  apiTokenFingerprint?: string;
  expiresInS?: number;
  type?: 'issued' | 'renewed' | 'reused' | 'failed';
  /** `clock.now()` time at which the token expires. */
  expiresAt?: number;
  durationMs?: number;
  code?: number;
  kind?: ErrorKind;
}

export const verifyChannel = diagnosticsChannel.tracingChannel<VerifyMessage, VerifyMessage>(CHANNELS.verify);
export const apiTokenChannel = diagnosticsChannel.tracingChannel<ApiTokenMessage, ApiTokenMessage>(CHANNELS.apiToken);
export const platformCallChannel = diagnosticsChannel.tracingChannel<PlatformCallMessage, PlatformCallMessage>(
  CHANNELS.platformCall,
);
export const callChannel = diagnosticsChannel.channel(CHANNELS.call);
export const circuitChannel = diagnosticsChannel.channel(CHANNELS.circuit);
export const probeChannel = diagnosticsChannel.channel(CHANNELS.probe);
export const cacheChannel = diagnosticsChannel.channel(CHANNELS.cache);
export const revocationChannel = diagnosticsChannel.channel(CHANNELS.revocation);
export const connectionChannel = diagnosticsChannel.channel(CHANNELS.connection);
export const sessionEndChannel = diagnosticsChannel.channel(CHANNELS.sessionEnd);
export const outageGraceChannel = diagnosticsChannel.channel(CHANNELS.outageGrace);
export const apiTokenStateChannel = diagnosticsChannel.channel(CHANNELS.apiTokenState);
