import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { AdapterCore } from '../adapters/adapter-core.js';
import { GAME_PLATFORM_CORE } from './tokens.js';

/**
 * Guard for `@UseGuards(GamePlatformGuard)`: authenticates the player and
 * sets `request.user`, or throws the `PlatformError` that the module's
 * exception filter renders as our problem answer (401/400 with a challenge,
 * 403 `register_device`, 503 `retry_later` with `Retry-After`, 500
 * `contact_support`). Works on Nest's Express and Fastify platforms.
 *
 * @example
 * ```ts
 * import { Controller, Get, UseGuards } from '@nestjs/common';
 * import { GamePlatformGuard, GameUser } from 'passport-game-platform/nest';
 * import type { GameUser as Player } from 'passport-game-platform';
 *
 * @Controller('api')
 * @UseGuards(GamePlatformGuard)
 * class MeController {
 *   @Get('me')
 *   me(@GameUser() user: Player) {
 *     return { member_no: user.memberNo, guid: user.guid };
 *   }
 * }
 * ```
 */
export class GamePlatformGuard implements CanActivate {
  readonly #core: AdapterCore<object, object>;

  constructor(core: AdapterCore<object, object>) {
    this.#core = core;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (context.getType() !== 'http') {
      throw new TypeError('GamePlatformGuard protects HTTP routes; authenticate sockets with the real-time adapters');
    }
    const http = context.switchToHttp();
    const req = http.getRequest<{ user?: unknown }>();
    req.user = await this.#core.authenticate(req, http.getResponse<object>());
    return true;
  }
}
// Applied as calls, not syntax: the package compiles without experimentalDecorators.
Injectable()(GamePlatformGuard);
Inject(GAME_PLATFORM_CORE)(GamePlatformGuard, undefined, 0);
