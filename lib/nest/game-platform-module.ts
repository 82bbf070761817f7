import { Module, type DynamicModule, type InjectionToken, type ModuleMetadata, type OptionalFactoryDependency, type Provider } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { adapterCore, type AdapterOptions } from '../adapters/index.js';
import { GamePlatformGuard } from './game-platform-guard.js';
import { GamePlatformExceptionFilter } from './problem-filter.js';
import { GAME_PLATFORM_CLIENT, GAME_PLATFORM_CORE, GAME_PLATFORM_OPTIONS } from './tokens.js';

/**
 * Options of {@link GamePlatformModule}: `client` (a `PlatformClient`),
 * `realm`, `tokenFrom`, `mapUser`, `authorize`, `logger`. Hooks receive the
 * platform's request object (Express or Fastify).
 */
export type GamePlatformModuleOptions<U extends object = object> = AdapterOptions<U, object>;

/** Options of {@link GamePlatformModule.forRootAsync}, e.g. from `ConfigService`. */
export interface GamePlatformModuleAsyncOptions {
  imports?: ModuleMetadata['imports'];
  inject?: (InjectionToken | OptionalFactoryDependency)[];
  useFactory: (...args: never[]) => GamePlatformModuleOptions | Promise<GamePlatformModuleOptions>;
}

const OWNER = 'GamePlatformModule';
const SHARED: Provider[] = [GamePlatformGuard, { provide: APP_FILTER, useClass: GamePlatformExceptionFilter }];
const EXPORTS = [GAME_PLATFORM_CORE, GAME_PLATFORM_CLIENT, GamePlatformGuard];

/**
 * Global module providing {@link GamePlatformGuard} and the client (injected with
 * {@link GAME_PLATFORM_CLIENT}), and registering the exception filter that renders our problem
 * answers.
 *
 * @example
 * ```ts
 * import { Module } from '@nestjs/common';
 * import { ConfigModule, ConfigService } from '@nestjs/config';
 * import { PlatformClient, fromEnv } from 'passport-game-platform';
 * import { GamePlatformModule } from 'passport-game-platform/nest';
 *
 * @Module({
 *   imports: [
 *     GamePlatformModule.forRootAsync({
 *       imports: [ConfigModule],
 *       inject: [ConfigService],
 *       useFactory: (config: ConfigService) => ({
 *         // fromEnv reads any variable source: here, what ConfigService loaded.
 *         client: new PlatformClient(fromEnv({
 *           PLATFORM_BASE_URL: config.get('PLATFORM_BASE_URL'), PLATFORM_ENV: config.get('PLATFORM_ENV'),
 *           PLATFORM_CLIENT_ID: config.get('PLATFORM_CLIENT_ID'), PLATFORM_CLIENT_SECRET: config.get('PLATFORM_CLIENT_SECRET'),
 *           PLATFORM_GAME_ID: config.get('PLATFORM_GAME_ID'),
 *         })),
 *       }),
 *     }),
 *   ],
 * })
 * class AppModule {}
 * ```
 */
export class GamePlatformModule {
  /** Options known at import time; checked here, so a wrong option fails at startup. */
  static forRoot<U extends object = object>(options: GamePlatformModuleOptions<U>): DynamicModule {
    const core = adapterCore<U, object>(options, OWNER);
    return {
      module: GamePlatformModule,
      global: true,
      providers: [{ provide: GAME_PLATFORM_CORE, useValue: core }, { provide: GAME_PLATFORM_CLIENT, useValue: options.client }, ...SHARED],
      exports: EXPORTS,
    };
  }

  /** Options from a factory (Nest's `ConfigService`, a secret store); checked when it resolves. */
  static forRootAsync(options: GamePlatformModuleAsyncOptions): DynamicModule {
    if (options === null || typeof options !== 'object' || typeof options.useFactory !== 'function') {
      throw new TypeError(`${OWNER}.forRootAsync: options.useFactory must be a function`);
    }
    const { useFactory, inject = [], imports = [] } = options;
    return {
      module: GamePlatformModule,
      global: true,
      imports,
      providers: [
        { provide: GAME_PLATFORM_OPTIONS, useFactory, inject },
        {
          provide: GAME_PLATFORM_CORE,
          useFactory: (resolved: GamePlatformModuleOptions) => adapterCore(resolved, OWNER),
          inject: [GAME_PLATFORM_OPTIONS],
        },
        { provide: GAME_PLATFORM_CLIENT, useFactory: (resolved: GamePlatformModuleOptions) => resolved.client, inject: [GAME_PLATFORM_OPTIONS] },
        ...SHARED,
      ],
      exports: EXPORTS,
    };
  }
}
Module({})(GamePlatformModule);
