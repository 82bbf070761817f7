import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { AdapterCore } from '../adapters/index.js';
import { isPlatformError, missingCredentials } from '../errors/index.js';
import type { GameUser } from '../types.js';
import { abortOnDisconnect, setClientUser, type GatewayClient } from './gateway-client.js';
import { wsExceptionLoaded, wsRefusal } from './ws-refusal.js';
import { GAME_PLATFORM_CORE } from './tokens.js';

/**
 * Guard for `@UseGuards(GamePlatformGuard)`: authenticates the player and
 * sets `request.user`, or throws the `PlatformError` that the module's
 * exception filter renders as our problem answer (401/400 with a challenge,
 * 403 `register_device`, 503 `retry_later` with `Retry-After`, 500
 * `contact_support`). Works on Nest's Express and Fastify platforms.
 *
 * In a Socket.IO gateway (`@WebSocketGateway()` with
 * `@nestjs/platform-socket.io`) it reads the token from the client's
 * handshake like the Socket.IO adapter: `Authorization: Bearer`,
 * `handshake.auth.token`, or the web token cookie when `tokenFrom.cookie`
 * names it; never the URL. The player goes to `client.data.user` (and to
 * `@GameUser()`); a refusal is Nest's `WsException`, so the client's
 * `exception` event carries our problem body (`status`, `action`, `code`)
 * with no filter to add. A client is verified once, at its first guarded
 * message; to re-verify long-lived sockets and end them on logout, use the
 * Socket.IO adapter on the gateway's server.
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
  /** One verification per gateway client: its handshake token cannot change. */
  readonly #clients = new WeakMap<object, Promise<GameUser>>();

  constructor(core: AdapterCore<object, object>) {
    this.#core = core;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const type = context.getType();
    if (type === 'ws') return this.#gateway(context.switchToWs().getClient<GatewayClient>());
    if (type !== 'http') {
      throw new TypeError('GamePlatformGuard protects HTTP routes and Socket.IO gateways; authenticate other transports with the real-time adapters');
    }
    const http = context.switchToHttp();
    const req = http.getRequest<{ user?: unknown }>();
    req.user = await this.#core.authenticate(req, http.getResponse<object>());
    return true;
  }

  // A gateway message: the client's handshake is verified once (messages that race share the
  // call), the player goes to client.data.user, and a refusal is the client's `exception` event.
  async #gateway(client: GatewayClient): Promise<boolean> {
    await wsExceptionLoaded();
    if (client === null || typeof client !== 'object') throw wsRefusal(missingCredentials(), this.#core.realm);
    let verified = this.#clients.get(client);
    if (verified === undefined) {
      verified = this.#verifyClient(client);
      this.#clients.set(client, verified);
    }
    try {
      setClientUser(client, await verified);
    } catch (err) {
      // A refusal stays with the client (no platform call per message); a fault may heal.
      if (!isPlatformError(err) || err.isServerFault) this.#clients.delete(client);
      this.#core.logFault(err);
      throw wsRefusal(err, this.#core.realm);
    }
    return true;
  }

  async #verifyClient(client: GatewayClient): Promise<GameUser> {
    const request = client.request;
    if (request === null || typeof request !== 'object' || typeof request.headers !== 'object') throw missingCredentials();
    const watch = abortOnDisconnect(client);
    try {
      return await this.#core.authenticateHandshake(request, client.handshake?.auth?.token, client, watch?.signal);
    } finally {
      watch?.stop();
    }
  }
}
// Applied as calls, not syntax: the package compiles without experimentalDecorators.
Injectable()(GamePlatformGuard);
Inject(GAME_PLATFORM_CORE)(GamePlatformGuard, undefined, 0);
