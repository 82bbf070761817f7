/**
 * Fastify adapter (`passport-game-platform/fastify`).
 *
 * @packageDocumentation
 */
export { fastifyGamePlatform } from './plugin.js';
export type { FastifyGamePlatformOptions, FastifyGameUser } from './plugin.js';
