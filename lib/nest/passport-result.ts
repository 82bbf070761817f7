import type { ExecutionContext } from '@nestjs/common';
import { passportFailureOf } from '../adapters/passport-failure.js';
import { PlatformError, invalidRequest, isPlatformError, missingCredentials } from '../errors/index.js';

/**
 * For teams on `@nestjs/passport` with our `PlatformBearerStrategy`: call it
 * from your `AuthGuard('game-platform')`'s `handleRequest`. Nest's default
 * turns every refusal into a bare 401 (a 46217 device problem included);
 * this throws the strategy's own `PlatformError` instead, which the
 * `GamePlatformModule`'s filter renders with its status, action, code and
 * headers. Faults (503, 500) arrive as `err` and are thrown as they are.
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
  if (err !== null && err !== undefined) throw err;
  if (user) return user;
  if (isPlatformError(info)) throw info;
  const recorded = passportFailureOf(context.switchToHttp().getRequest<object>());
  if (recorded !== undefined) throw recorded;
  // Another strategy's refusal: keep its status with our body.
  if (status === 400) throw invalidRequest('malformed authentication request');
  if (status === 403) throw new PlatformError({ kind: 'access_denied', message: 'Access denied.' });
  throw missingCredentials();
}
