export { PlatformHttp, MAX_REQUEST_BYTES, MAX_RESPONSE_BYTES } from './platform-http.js';
export type { PlatformRequest, PlatformReply, CallStats } from './platform-http.js';
export { BadBody, parsePlatformBody, readIdentifier, readObject, isRecord } from './platform-body.js';
export type { PlatformBody, ParsedBody } from './platform-body.js';
export { fullJitterDelay, retryAfterMs, isRetryableResponse, classifyNoResponse } from './retry-policy.js';
export { faultFromError, faultFromBadBody } from './fault-boundary.js';
export { CallLimiter } from './call-limiter.js';
export { KEEP_ALIVE_IDLE_MS, createAgents } from './agents.js';
