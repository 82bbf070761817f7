/**
 * Fastify adapter (`passport-game-platform/fastify`).
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { fastifyGamePlatform } from './plugin.js';
export type { FastifyGamePlatformOptions } from './plugin.js';
export type { FastifyGameUser, FastifyRequestUserType, FastifyRequestUser, GameUserRequest } from './request-user.js';
export { gamePlatformErrorHandler } from './error-handler.js';
export type { FastifyErrorHandler, GamePlatformErrorHandlerOptions } from './error-handler.js';
export type { AdapterOptions } from '../adapters/index.js';
