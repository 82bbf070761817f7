export { extractBearerToken } from './extract-token.js';
export { createAuthenticator, authenticateRequest } from './authenticate.js';
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
