// One protected route, `GET /api/me`, served by each adapter the package
// has, on a real loopback port: the error table runs against all of them.
import 'reflect-metadata';
import { Controller, Get, Injectable, Module, UseGuards, type DynamicModule, type ExecutionContext, type INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { AddressInfo } from 'node:net';
import passport from 'passport';
import { AppModule } from '../../examples/nest/app-module.js';
import { buildFastifyApp } from '../../examples/fastify/app.js';
import type { PlatformClient } from '../../lib/client/index.js';
import { GamePlatformModule, GameUser, passportResult } from '../../lib/nest/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import type { GameUser as Player } from '../../lib/types.js';
import { EXPRESS_VERSIONS, buildApp, listen, loadPassport, recordingLogger, type GuardMode } from './http-apps.js';

/** A running app: its port, and how to stop it. */
export interface AdapterServer {
  port: number;
  close(): Promise<void>;
}

/** Starts an app whose `GET /api/me` is protected with `client`. */
export type StartAdapter = (client: PlatformClient) => Promise<AdapterServer>;

async function nestServer(app: INestApplication): Promise<AdapterServer> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { port, close: () => app.close() };
}

let strategies = 0;

/** `@nestjs/passport`'s `AuthGuard` on our strategy, with the `handleRequest` of docs/nest.md. */
function nestPassportModule(client: PlatformClient): DynamicModule {
  const name = `game-platform-${++strategies}`;
  passport.use(name, new PlatformBearerStrategy({ client, logger: recordingLogger() }));

  @Injectable()
  class GameAuthGuard extends AuthGuard(name) {
    override handleRequest<T>(err: unknown, user: T, info: unknown, context: ExecutionContext): T {
      return passportResult(err, user, info, context);
    }
  }

  @Controller('api')
  class PassportMeController {
    @Get('me')
    @UseGuards(GameAuthGuard)
    me(@GameUser() user: Player): { member_no: string; guid: string | null } {
      return { member_no: user.memberNo, guid: user.guid };
    }
  }

  @Module({})
  class PassportAppModule {}

  // The module registers the problem filter; the passport guard replaces ours.
  return { module: PassportAppModule, imports: [GamePlatformModule.forRoot({ client, logger: recordingLogger() })], controllers: [PassportMeController] };
}

const expressAdapters: [string, StartAdapter][] = EXPRESS_VERSIONS.flatMap(([version, expressFn]) =>
  (['requireGameUser', 'passport'] as GuardMode[]).map((mode): [string, StartAdapter] => [
    `${version} ${mode === 'passport' ? 'passport.authenticate()' : 'requireGameUser'}`,
    async (client) => listen(buildApp(expressFn, { mode, passport: await loadPassport(), auth: { client } })),
  ]),
);

/** Every adapter, by name, for `describe.each`. */
export const ADAPTERS: [string, StartAdapter][] = [
  ...expressAdapters,
  ['Nest (Express platform) GamePlatformGuard', async (client) =>
    nestServer(await NestFactory.create(AppModule.with(GamePlatformModule.forRoot({ client, logger: recordingLogger() })), { logger: false }))],
  ['Nest (Fastify platform) GamePlatformGuard', async (client) =>
    nestServer(await NestFactory.create(AppModule.with(GamePlatformModule.forRoot({ client, logger: recordingLogger() })), new FastifyAdapter(), { logger: false }))],
  ['Nest @nestjs/passport AuthGuard with passportResult', async (client) =>
    nestServer(await NestFactory.create(nestPassportModule(client), { logger: false }))],
  ['Fastify plugin', async (client) => {
    const app = await buildFastifyApp(client, recordingLogger());
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  }],
];
