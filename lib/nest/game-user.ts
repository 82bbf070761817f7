import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { clientUserOf } from './gateway-client.js';

/**
 * Parameter decorator: the player {@link GamePlatformGuard} (or a
 * `@nestjs/passport` guard) put on the request, `{ memberNo, guid, ... }`;
 * in a gateway, the one on the client (`client.data.user`).
 */
export const GameUser = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  if (context.getType() === 'ws') return clientUserOf(context.switchToWs().getClient<unknown>());
  return context.switchToHttp().getRequest<{ user?: unknown }>().user;
});
