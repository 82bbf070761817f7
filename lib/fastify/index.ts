/**
 * Fastify adapter (`passport-game-platform/fastify`).
 *
 * @packageDocumentation
 */
export { fastifyGamePlatform } from './plugin.js';
export type { FastifyGamePlatformOptions, FastifyGameUser } from './plugin.js';
export type { AdapterOptions } from '../adapters/adapter-core.js';
export { gamePlatformErrorHandler } from './error-handler.js';
export type { FastifyErrorHandler, GamePlatformErrorHandlerOptions } from './error-handler.js';
