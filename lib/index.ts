// The public surface of passport-game-platform. Named exports only; the
// emulator is a separate subpath (`passport-game-platform/emulator`).

export {
  PlatformError,
  isPlatformError,
  PlatformCode,
  DEFAULT_RETRY_AFTER_SECONDS,
  errorForPlatformCode,
  errorForTransportFault,
  errorForRefusalOnOurSide,
  isApiTokenRejection,
  isTransientCode,
  missingCredentials,
  invalidRequest,
  malformedToken,
  challengeFor,
  DEFAULT_REALM,
} from './errors/index.js';
export type {
  ErrorKind, ClientAction, PlatformErrorInit, PlatformEndpoint, TransportFault,
} from './errors/index.js';

export type { GameUser, Logger, Clock } from './types.js';

export {
  LIVE_BASE_URL,
  SANDBOX_BASE_URL,
  DEFAULT_TIMEOUT_MS,
  DEFAULT_TOTAL_TIMEOUT_MS,
  DEFAULT_RETRIES,
  DEFAULT_RETRY_BASE_DELAY_MS,
  DEFAULT_RETRY_MAX_DELAY_MS,
  DEFAULT_MAX_CONCURRENT_CALLS,
  DEFAULT_MAX_QUEUED_CALLS,
  DEFAULT_CACHE_MAX_ENTRIES,
  MAX_CACHE_TTL_MS,
  MAX_TOKEN_LENGTH,
  DEFAULT_CIRCUIT_FAILURE_THRESHOLD,
  DEFAULT_CIRCUIT_OPEN_MS,
  resolvePlatformConfig,
  fromEnv,
  fingerprint,
  silentLogger,
} from './config/index.js';
export type {
  CircuitBreakerOptions, PlatformConfig, PlatformEnvironment, ResolvedPlatformConfig, ResultCacheOptions,
} from './config/index.js';

export { PlatformHttp, KEEP_ALIVE_IDLE_MS, isCircuitOpenError } from './http/index.js';
export type { HttpLoad, CircuitState, CircuitEvent } from './http/index.js';

export {
  ApiTokenProvider,
  DEFAULT_API_TOKEN_LIFETIME_MS,
  RENEW_REMAINING_FRACTION,
  RENEWAL_RETRY_MS,
  RENEWAL_RETRY_MAX_MS,
  CONFIGURATION_BACKOFF_MS,
} from './provider/index.js';
export type { ApiTokenProviderDeps, GetTokenOptions, TokenEvent, ProviderState } from './provider/index.js';

export { PlatformClient, INVALID_TOKEN_RUN_LENGTH, INVALID_TOKEN_RUN_WINDOW_MS } from './client/index.js';
export type {
  PlatformClientOptions, CallEvent, MemberQuery, ProbeEvent, ProbeOutcome, ClientHealth, HealthExtras, StoreHealth,
} from './client/index.js';

export {
  extractBearerToken,
  createAuthenticator,
  authenticateRequest,
  accessDenied,
} from './auth/index.js';
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

export { PlatformBearerStrategy } from './strategy/index.js';
export type {
  PlatformBearerStrategyOptions,
  StrategyActions,
  VerifiedCallback,
  VerifyCallback,
  VerifyCallbackWithRequest,
} from './strategy/index.js';

export {
  requireGameUser,
  platformErrorHandler,
  problemResponse,
  problemBody,
  problemFor,
  sendProblem,
  PROBLEM_TYPE_PREFIX,
} from './middleware/index.js';
export type {
  RequireGameUserOptions,
  PlatformErrorHandlerOptions,
  ProblemResponse,
  ProblemResponseOptions,
  Problem,
  ProblemBody,
  ProblemOptions,
} from './middleware/index.js';
