import { createParamDecorator, type ExecutionContext } from '@nestjs/common';

/**
 * Parameter decorator: the player {@link GamePlatformGuard} (or a
 * `@nestjs/passport` guard) put on the request, `{ memberNo, guid, ... }`.
 */
export const GameUser = createParamDecorator((_data: unknown, context: ExecutionContext): unknown => {
  return context.switchToHttp().getRequest<{ user?: unknown }>().user;
});
