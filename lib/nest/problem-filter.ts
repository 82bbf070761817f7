import { Catch, Inject, Injectable, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PlatformError } from '../errors/index.js';
import type { AdapterCore } from '../adapters/index.js';
import { problemResponse } from '../problem/index.js';
import { GAME_PLATFORM_CORE } from './tokens.js';

/**
 * Renders every `PlatformError` reaching Nest (from {@link GamePlatformGuard},
 * the `@nestjs/passport` helper, or a route calling the client) as our
 * `application/problem+json` answer with its `WWW-Authenticate`,
 * `Retry-After` and `Cache-Control: no-store`, through Nest's HTTP adapter
 * (Express or Fastify). Server-side faults are logged to the module's
 * `logger`, one line per kind and code a minute. `GamePlatformModule`
 * registers it globally.
 */
export class GamePlatformExceptionFilter implements ExceptionFilter<PlatformError> {
  readonly #host: HttpAdapterHost;
  readonly #core: AdapterCore;

  constructor(host: HttpAdapterHost, core: AdapterCore) {
    this.#host = host;
    this.#core = core;
  }

  catch(error: PlatformError, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw error;
    const { httpAdapter } = this.#host;
    const response: unknown = host.switchToHttp().getResponse();
    this.#core.logFault(error);
    // The error carries the realm of the guard or strategy that refused the request.
    const { status, headers, body } = problemResponse(error);
    for (const [name, value] of Object.entries(headers)) httpAdapter.setHeader(response, name, value);
    httpAdapter.reply(response, JSON.stringify(body), status);
  }
}
Catch(PlatformError)(GamePlatformExceptionFilter);
Injectable()(GamePlatformExceptionFilter);
Inject(HttpAdapterHost)(GamePlatformExceptionFilter, undefined, 0);
Inject(GAME_PLATFORM_CORE)(GamePlatformExceptionFilter, undefined, 1);
