// One platform call, one step per file: the shared flight (single-flight), the API token held,
// issued and reissued once (api-call, with the 40000-run guard in token-run-guard), the
// concurrency limiter (call-limiter), the circuit breaker (circuit-breaker), the retry loop and
// its rules (platform-http, retry-policy), the undici transport (transport) and the one place a
// low-level failure becomes a PlatformError (fault-boundary). With them the package's one signal
// shape (deadline-signal: a light `DeadlineSignal` or an `AbortSignal`, carried from the request
// down to the socket), the bridge to a real `AbortSignal` for a verifier of the application's own
// (signal-bridge) and the error of a call whose caller went away (aborted): the authenticator and
// the adapter kit, above, take them from here.
export { DeadlineSignal } from './deadline-signal.js';
export type { Abortable, AbortReason } from './deadline-signal.js';
export { abortedError, isAbortedError, CALLER_GONE } from './aborted.js';
export { acceptsAbortable, bridgeSignal, takesAbortable } from './signal-bridge.js';
export type { SignalBridge } from './signal-bridge.js';
export { PlatformHttp } from './platform-http.js';
export { KEEP_ALIVE_IDLE_MS, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES, Exchange, Transport, TransportError } from './transport.js';
export type { TransportOptions, RawRequest, RawResponse } from './transport.js';
export type { PlatformRequest, PlatformReply, CallStats, CallContext, HttpLoad } from './platform-http.js';
export { BadBody, isApiTokenRejection, isTransientCode, parsePlatformBody, readIdentifier, readObject, isRecord, memberFromReply, verifiedIdentifiers } from './platform-body.js';
export type { PlatformBody, ParsedBody, VerifiedIdentifiers } from './platform-body.js';
export { fullJitterDelay, retryAfterMs, isRetryableResponse, classifyNoResponse, countsAsPlatformFailure } from './retry-policy.js';
export { faultFromError, faultFromBadBody } from './fault-boundary.js';
export { CallLimiter } from './call-limiter.js';
export { CircuitBreaker, isCircuitOpenError } from './circuit-breaker.js';
export type { CircuitState, CircuitEvent, CircuitPermit, CallVerdict } from './circuit-breaker.js';
export { circuitEventOf } from './circuit-breaker.js';
export { SingleFlight } from './single-flight.js';
export { ApiCall } from './api-call.js';
export { TokenRunGuard, INVALID_TOKEN_RUN_LENGTH, INVALID_TOKEN_RUN_WINDOW_MS } from './token-run-guard.js';
export type { ProbeEvent, ProbeOutcome } from './token-run-guard.js';
export { ApiTokenProvider } from './api-token-provider.js';
export type {
  ApiTokenProviderDeps, GetTokenOptions, TokenEvent, ProviderState, TokenReply, TokenTrace, WithTokenOptions,
} from './provider-types.js';
export {
  DEFAULT_API_TOKEN_LIFETIME_MS, RENEW_REMAINING_FRACTION, RENEWAL_RETRY_MS, RENEWAL_RETRY_MAX_MS, CONFIGURATION_BACKOFF_MS,
} from './token-lifetime.js';
