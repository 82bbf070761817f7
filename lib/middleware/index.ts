import '../adapters/index.js';

export { requireGameUser } from './require-game-user.js';
export type { RequireGameUserOptions } from './require-game-user.js';
export { platformErrorHandler } from './platform-error-handler.js';
export type { PlatformErrorHandlerOptions } from './platform-error-handler.js';
