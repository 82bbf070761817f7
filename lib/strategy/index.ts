import '../adapters/index.js';

export { PlatformBearerStrategy } from './platform-bearer-strategy.js';
export type { PlatformBearerStrategyOptions, StrategyActions } from './platform-bearer-strategy.js';
export type { VerifiedCallback, VerifyCallback, VerifyCallbackWithRequest } from './verify-callback.js';
