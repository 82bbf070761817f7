export { ApiTokenProvider } from './api-token-provider.js';
export type {
  ApiTokenProviderDeps, GetTokenOptions, TokenEvent, ProviderState, TokenReply, TokenTrace, WithTokenOptions,
} from './provider-types.js';
export {
  DEFAULT_API_TOKEN_LIFETIME_MS, RENEW_REMAINING_FRACTION, RENEWAL_RETRY_MS, RENEWAL_RETRY_MAX_MS, CONFIGURATION_BACKOFF_MS,
} from './token-lifetime.js';
export type { WaitSignal } from './wait-until.js';
