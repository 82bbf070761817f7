/**
 * Fastify adapter (`passport-game-platform/fastify`).
 *
 * @packageDocumentation
 */
export { fastifyGamePlatform } from './plugin.js';
export type { FastifyGamePlatformOptions } from './plugin.js';
export type { FastifyGameUser, FastifyRequestUserType, FastifyRequestUser, GameUserRequest } from './request-user.js';
export { gamePlatformErrorHandler } from './error-handler.js';
export type { FastifyErrorHandler, GamePlatformErrorHandlerOptions } from './error-handler.js';
export type { AdapterOptions } from '../adapters/index.js';
