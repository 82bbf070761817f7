import '../strategy/express-augment.js';

export { requireGameUser } from './require-game-user.js';
export type { RequireGameUserOptions } from './require-game-user.js';
export { platformErrorHandler } from './platform-error-handler.js';
export type { PlatformErrorHandlerOptions } from './platform-error-handler.js';
export { problemResponse } from './problem-response.js';
export type { ProblemResponse, ProblemResponseOptions } from './problem-response.js';
export { problemBody, problemFor, sendProblem, PROBLEM_TYPE_PREFIX } from './problem.js';
export type { Problem, ProblemBody, ProblemOptions, SendProblemOptions } from './problem.js';
