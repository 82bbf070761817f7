export { extractBearerToken, findBearerToken, locateBearerToken } from './extract-token.js';
export { createAuthenticator, authenticateRequest } from './authenticate.js';
export { AuthenticationCore } from './authentication-core.js';
export { resolveAuthenticateOptions, checkLogger, checkRealm } from './resolve-options.js';
export type { ResolvedAuthenticateOptions } from './resolve-options.js';
export { guardedLogger } from './default-logger.js';
export { describeThrown, toPlatformError } from './unexpected-error.js';
export type { Authenticator, AuthenticateCallOptions, TokenContext } from './authenticate.js';
export { accessDenied } from './access-denied.js';
export type { AccessDeniedInit } from './access-denied.js';
export type {
  AuthRequest,
  AuthenticateOptions,
  AuthorizeUser,
  ExtractedToken,
  MapUser,
  TokenSource,
  TokenSources,
  UserTokenVerifier,
  VerifyCallOptions,
} from './types.js';
