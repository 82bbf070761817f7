import type { ExecutionContext } from '@nestjs/common';
import { passportFailureOf } from '../adapters/index.js';
import { PlatformError, invalidRequest, isPlatformError, missingCredentials } from '../errors/index.js';
import { clientRequests, setClientUser } from './gateway-client.js';
import { wsRefusal } from './ws-refusal.js';

/**
 * For teams on `@nestjs/passport` with our `PlatformBearerStrategy`: call it
 * from your `AuthGuard('game-platform')`'s `handleRequest`. Nest's default
 * turns every refusal into a bare 401 (a 46217 device problem included);
 * this throws the strategy's own `PlatformError` instead, which the
 * `GamePlatformModule`'s filter renders with its status, action, code and
 * headers. Faults (503, 500) arrive as `err` and are thrown as they are.
 * In a Socket.IO gateway (with `getRequest()` returning the client's
 * `request` or `handshake`) it throws Nest's `WsException` with our problem
 * body instead, and puts the player on `client.data.user`.
 *
 * @example
 * ```ts
 * import { Injectable, type ExecutionContext } from '@nestjs/common';
 * import { AuthGuard } from '@nestjs/passport';
 * import { passportResult } from 'passport-game-platform/nest';
 *
 * @Injectable()
 * export class GameAuthGuard extends AuthGuard('game-platform') {
 *   override handleRequest<T>(err: unknown, user: T, info: unknown, context: ExecutionContext): T {
 *     return passportResult(err, user, info, context);
 *   }
 * }
 * ```
 */
export function passportResult<T>(err: unknown, user: T, info: unknown, context: ExecutionContext, status?: unknown): T {
  if (context.getType() === 'ws') return gatewayResult(err, user, info, context, status);
  if (err !== null && err !== undefined) throw err;
  if (user) return user;
  throw refusalOf(info, [context.switchToHttp().getRequest<object>()], status);
}

// In a gateway Nest renders only WsException: the refusal becomes the client's `exception`
// event with our body, and the player goes to client.data.user for @GameUser().
function gatewayResult<T>(err: unknown, user: T, info: unknown, context: ExecutionContext, status: unknown): T {
  const client = context.switchToWs().getClient<unknown>();
  if (err !== null && err !== undefined) throw wsRefusal(err);
  if (user) {
    if (client !== null && typeof client === 'object') setClientUser(client, user);
    return user;
  }
  throw wsRefusal(refusalOf(info, clientRequests(client), status));
}

function refusalOf(info: unknown, requests: object[], status: unknown): PlatformError {
  if (isPlatformError(info)) return info;
  for (const req of requests) {
    const recorded = passportFailureOf(req);
    if (recorded !== undefined) return recorded;
  }
  // Another strategy's refusal: keep its status with our body.
  if (status === 400) return invalidRequest('malformed authentication request');
  if (status === 403) return new PlatformError({ kind: 'access_denied', message: 'Access denied.' });
  return missingCredentials();
}
