export { PlatformClient } from './platform-client.js';
export type { VerifyOptions, ClientEvents } from './platform-client.js';
export type { PlatformClientOptions, CallEvent } from './client-options.js';
export type { MemberQuery } from './client-input.js';
export { INVALID_TOKEN_RUN_LENGTH, INVALID_TOKEN_RUN_WINDOW_MS } from '../platform-call/token-run-guard.js';
export type { ProbeEvent, ProbeOutcome } from '../platform-call/token-run-guard.js';
export type { ClientHealth, DegradedPart, HealthExtras, StoreHealth } from './client-health.js';
export { MAX_OUTAGE_GRACE_MS } from './outage-grace.js';
export type { OutageGraceOptions } from './outage-grace.js';
