// The one renderer of a failure as an HTTP answer (RFC 9457 problem+json, RFC 6750 challenges):
// below the real-time sessions and the adapter kit, which both render with it.
export { problemResponse, describeError, isAuthenticationError } from './problem-response.js';
export type { DescribedError, ProblemResponse, ProblemResponseOptions } from './problem-response.js';
export { problemBody, problemFor, sendProblem, PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_PREFIX } from './problem.js';
export type { Problem, ProblemBody, ProblemOptions, SendProblemOptions } from './problem.js';
export { jitteredRetryAfter } from './retry-after-jitter.js';
