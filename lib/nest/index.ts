/**
 * NestJS adapter (`passport-game-platform/nest`).
 *
 * @packageDocumentation
 */
export { GamePlatformModule } from './game-platform-module.js';
export type { GamePlatformModuleOptions, GamePlatformModuleAsyncOptions } from './game-platform-module.js';
export { GamePlatformGuard } from './game-platform-guard.js';
export { GamePlatformExceptionFilter } from './problem-filter.js';
export type { AdapterCore, AdapterOptions } from '../adapters/index.js';
export { GameUser } from './game-user.js';
export { passportResult } from './passport-result.js';
