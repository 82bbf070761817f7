import '../adapters/express-augment.js';

export { requireGameUser } from './require-game-user.js';
export type { RequireGameUserOptions } from './require-game-user.js';
export { platformErrorHandler } from './platform-error-handler.js';
export type { PlatformErrorHandlerOptions } from './platform-error-handler.js';
export { problemResponse } from '../adapters/problem-response.js';
export type { ProblemResponse, ProblemResponseOptions } from '../adapters/problem-response.js';
export { problemBody, problemFor, sendProblem, PROBLEM_TYPE_PREFIX } from '../adapters/problem.js';
export type { Problem, ProblemBody, ProblemOptions, SendProblemOptions } from '../adapters/problem.js';
