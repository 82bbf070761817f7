import type { GameUser } from '../types.js';

/**
 * The player on `request.user`. Extend it by declaration merging when
 * `mapUser` adds fields:
 * `declare module 'passport-game-platform/fastify' { interface FastifyGameUser { level: number } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FastifyGameUser extends GameUser {}

/**
 * Changes what `request.user` may hold, for apps where another plugin sets it
 * too. `@fastify/jwt` declares `request.user` itself (as its `FastifyJWT`
 * `user`); declare `{ user: unknown }` here and its declaration decides the
 * type, with no conflict:
 * `declare module 'passport-game-platform/fastify' { interface FastifyRequestUserType { user: unknown } }`
 * and `declare module '@fastify/jwt' { interface FastifyJWT { user: FastifyGameUser | AdminClaims } }`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FastifyRequestUserType {}

/** The type of `request.user`: {@link FastifyGameUser} unless {@link FastifyRequestUserType} says otherwise. */
export type FastifyRequestUser = FastifyRequestUserType extends { user: infer U } ? U : FastifyGameUser | undefined;

/** What the plugin adds to every request. */
export interface GameUserRequest {
  /** Set by `requireGameUser`. */
  user?: FastifyRequestUser;
}

// A base interface, not a property of FastifyRequest itself: another
// plugin's own `user` property (as @fastify/jwt's) then narrows it instead of
// colliding with it (TS2717).
declare module 'fastify' {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface FastifyRequest extends GameUserRequest {}
}
