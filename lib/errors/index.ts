export { PlatformError, isPlatformError } from './platform-error.js';
export type { ErrorKind, ClientAction, PlatformErrorInit } from './platform-error.js';
export {
  PlatformCode,
  DEFAULT_RETRY_AFTER_SECONDS,
  errorForPlatformCode,
  errorForTransportFault,
  errorForRefusalOnOurSide,
  isPlatformOutage,
  notAnOutage,
} from './platform-codes.js';
export type { PlatformEndpoint, TransportFault } from './platform-codes.js';
export { missingCredentials, invalidRequest, malformedToken, rateLimited, shuttingDown } from './request-errors.js';
export { challengeFor, DEFAULT_REALM } from './challenge.js';
export { checkTokenSyntax, checkTokenSyntaxOnce } from './token-syntax.js';
