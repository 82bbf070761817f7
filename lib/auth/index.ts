export { extractBearerToken } from './extract-token.js';
export { createAuthenticator, authenticateRequest } from './authenticate.js';
export type { Authenticator } from './authenticate.js';
export { accessDenied } from './access-denied.js';
export type { AccessDeniedInit } from './access-denied.js';
export { failureFor } from './failure-record.js';
export type {
  AuthRequest,
  AuthenticateOptions,
  AuthorizeUser,
  ExtractedToken,
  MapUser,
  TokenSource,
  TokenSources,
  UserTokenVerifier,
} from './types.js';
