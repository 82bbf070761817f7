// The public surface of passport-game-platform: what an application calls, nothing more.
// Named exports only. Frameworks and tools live in subpaths so an Express app never loads them:
// `/emulator` (the platform emulator), `/testkit` (simulated game clients for tests),
// `/ws`, `/socket.io`, `/nest`, `/fastify`. Internals are imported by path inside this repository;
// spec/package/root-exports.spec.ts pins this list.

// Errors: one class, one guard, the platform's codes.
import './runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { PlatformError, isPlatformError, PlatformCode } from './errors/index.js';
export type { ErrorKind, ClientAction, PlatformEndpoint, PlatformErrorInit } from './errors/index.js';

export type { GameUser, Logger, Clock } from './types.js';

// Configuration: from options or from the environment (with where each value came from).
export {
  LIVE_BASE_URL,
  SANDBOX_BASE_URL,
  resolvePlatformConfig,
  fromEnv,
  CLIENT_SECRET,
  SecretBox,
} from './config/index.js';
export { fingerprint } from './hashing/fingerprint.js';
export { silentLogger } from './logging/silent-logger.js';
export type {
  CircuitBreakerOptions, PlatformConfig, PlatformEnvironment, ResolvedPlatformConfig, ResultCacheOptions,
  PlatformEnvDescription, PlatformEnvValues, PlatformSettingName, PlatformEnvSource,
} from './config/index.js';
export type { MonotonicClock } from './time/monotonic.js';
export type { CircuitState, CircuitEvent, HttpLoad } from './platform-call/index.js';

// The platform: the shared API-token owner (E1) and the client (E2, E3, web tokens).
export { ApiTokenProvider } from './platform-call/index.js';
export type {
  TokenEvent, ProviderState, ApiTokenProviderDeps, GetTokenOptions, WithTokenOptions, TokenReply, TokenTrace,
} from './platform-call/index.js';
export { PlatformClient } from './client/index.js';
export type {
  PlatformClientOptions, CallEvent, MemberQuery, ClientEvents, VerifyOptions, ProbeEvent, ProbeOutcome, ClientHealth, HealthExtras, StoreHealth,
  OutageGraceOptions,
} from './client/index.js';
// Several instances: the verification store and revocation bus interfaces (Redis ones in `/redis`).
export type {
  VerificationStore, VerificationStoreHealth, StoreState, SharingOptions, FleetOptions, RevocationBus, SessionEndEvent, SessionEndReason, SubscribeOptions,
} from './store/index.js';

// Instrumentation: the diagnostics_channel names and their payloads (OpenTelemetry and Prometheus recipes in subpaths).
export { CHANNELS } from './diagnostics/channels.js';
export type {
  VerifyMessage, VerifyOutcome, ApiTokenMessage, PlatformCallMessage, CallMessage, CircuitMessage, ProbeMessage,
  CacheMessage, RevocationMessage, ConnectionMessage, ApiTokenStateMessage, SessionEndCause, SessionEndMessage, OutageGraceMessage,
} from './diagnostics/channels.js';

// The framework-free core every adapter is built on.
export { createAuthenticator, extractBearerToken, accessDenied } from './auth/index.js';
export type {
  AuthRequest,
  AuthenticateOptions,
  Authenticator,
  AuthenticateCallOptions,
  TokenContext,
  AuthorizeUser,
  AccessDeniedInit,
  ExtractedToken,
  MapUser,
  TokenSource,
  TokenSources,
  UserTokenVerifier,
  VerifyCallOptions,
} from './auth/index.js';

// Passport and Express adapters; the one problem renderer.
export { PlatformBearerStrategy } from './strategy/index.js';
export type {
  PlatformBearerStrategyOptions,
  StrategyActions,
  VerifiedCallback,
  VerifyCallback,
  VerifyCallbackWithRequest,
} from './strategy/index.js';

export { requireGameUser, platformErrorHandler } from './middleware/index.js';
export type { RequireGameUserOptions, PlatformErrorHandlerOptions } from './middleware/index.js';
export { problemResponse, sendProblem } from './problem/index.js';
export type { ProblemResponse, ProblemResponseOptions, Problem, ProblemBody, ProblemOptions, SendProblemOptions } from './problem/index.js';

// Types named in the signatures above, so applications can name them too.
export type { Env } from './config/from-env.js';
export type { PlatformHttp, PlatformRequest, PlatformReply, CallStats, CallContext } from './platform-call/index.js';
export type { Abortable } from './platform-call/index.js';
export type { Teller } from './diagnostics/channel-view.js';
export type { Scope } from './diagnostics/scope.js';
export type { ChannelView, ChannelViews } from './diagnostics/channel-view.js';
