export { PlatformClient } from './platform-client.js';
export type { PlatformClientOptions, CallEvent } from './client-options.js';
export type { MemberQuery } from './client-input.js';
export { MAX_USER_TOKEN_LENGTH } from './client-input.js';
