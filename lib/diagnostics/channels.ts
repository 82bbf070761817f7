import diagnosticsChannel from 'node:diagnostics_channel';

/**
 * Names of the channels the package publishes on, in the style of undici and
 * ioredis (`<package>:<subject>`). Tracing channels carry start/end/asyncStart/
 * asyncEnd/error events around one operation; plain channels carry one
 * message per event. Payloads hold endpoints, outcomes, codes, attempts,
 * durations (ms, monotonic) and 8-hex fingerprints: never a token or a secret.
 */
export const CHANNELS = {
  /** Tracing: one user-token verification (E2 or web token), cache hits included. */
  verify: 'passport-game-platform:verify',
  /** Tracing: one API-token issue or renewal (E1). */
  apiToken: 'passport-game-platform:api-token',
  /** Tracing: one HTTP attempt to the platform (E1, E2, E3). */
  platformCall: 'passport-game-platform:platform-call',
  /** Plain: the circuit breaker changed state. */
  circuit: 'passport-game-platform:circuit',
  /** Plain: a verification-cache lookup (hit or miss). */
  cache: 'passport-game-platform:cache',
  /** Plain: a user token was revoked (here or by another instance). */
  revocation: 'passport-game-platform:revocation',
  /** Plain: a live connection ended (realtime adapters). */
  connection: 'passport-game-platform:connection',
  /** Plain: the API token was issued, renewed, refused or dropped. */
  apiTokenState: 'passport-game-platform:api-token-state',
} as const;

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

export interface CircuitMessage { state: 'open' | 'half-open' | 'closed'; reason?: string }
export interface CacheMessage { kind: 'E2' | 'web'; hit: boolean; store: 'memory' | 'shared' }
export interface RevocationMessage { tokenFingerprint: string; origin: 'local' | 'remote' }
export interface ConnectionMessage { transport: 'ws' | 'socket.io' | 'colyseus'; memberNo: string; reason: string; durationMs: number }
export interface ApiTokenStateMessage { state: 'held' | 'renewed' | 'refused' | 'dropped'; apiTokenFingerprint?: string; expiresInS?: number }

export const verifyChannel = diagnosticsChannel.tracingChannel<VerifyMessage, VerifyMessage>(CHANNELS.verify);
export const apiTokenChannel = diagnosticsChannel.tracingChannel<ApiTokenMessage, ApiTokenMessage>(CHANNELS.apiToken);
export const platformCallChannel = diagnosticsChannel.tracingChannel<PlatformCallMessage, PlatformCallMessage>(
  CHANNELS.platformCall,
);
export const circuitChannel = diagnosticsChannel.channel(CHANNELS.circuit);
export const cacheChannel = diagnosticsChannel.channel(CHANNELS.cache);
export const revocationChannel = diagnosticsChannel.channel(CHANNELS.revocation);
export const connectionChannel = diagnosticsChannel.channel(CHANNELS.connection);
export const apiTokenStateChannel = diagnosticsChannel.channel(CHANNELS.apiTokenState);
