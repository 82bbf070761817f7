/**
 * NestJS adapter (`passport-game-platform/nest`).
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { GamePlatformModule } from './game-platform-module.js';
export type { GamePlatformModuleOptions, GamePlatformModuleAsyncOptions } from './game-platform-module.js';
export { GamePlatformGuard } from './game-platform-guard.js';
export { GamePlatformExceptionFilter } from './problem-filter.js';
export type { AdapterCore, AdapterOptions } from '../adapters/index.js';
export { GameUser } from './game-user.js';
export { GAME_PLATFORM_CLIENT } from './tokens.js';
export { passportResult } from './passport-result.js';
