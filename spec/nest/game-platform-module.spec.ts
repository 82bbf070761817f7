import 'reflect-metadata';
import { Controller, Get, Inject, Injectable, Module, UseGuards, type ExecutionContext } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { AddressInfo } from 'node:net';
import passport from 'passport';
import { AppModule } from '../../examples/nest/app-module.js';
import { PlatformClient } from '../../lib/client/index.js';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { GAME_PLATFORM_CLIENT, GamePlatformGuard, GamePlatformModule, GameUser } from '../../lib/nest/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { recordingLogger } from '../support/http-apps.js';
import { useAdapterEmulator } from '../support/http-emulator-client.js';

const { fixture, clients } = useAdapterEmulator();

type NestApp = Awaited<ReturnType<typeof NestFactory.create>>;

async function serve(app: NestApp): Promise<{ get: (path: string, token?: string) => Promise<Response>; close: () => Promise<void> }> {
  await app.listen(0, '127.0.0.1');
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    get: (path, token) => fetch(`http://127.0.0.1:${port}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }),
    close: () => app.close(),
  };
}

describe('GamePlatformModule', () => {
  it('forRootAsync builds the client from Nest\'s ConfigService', async () => {
    let built: PlatformClient | undefined;
    const platform = GamePlatformModule.forRootAsync({
      imports: [ConfigModule.forRoot({
        ignoreEnvFile: true,
        load: [() => ({ PLATFORM_BASE_URL: fixture.url, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game' })],
      })],
      inject: [ConfigService],
      useFactory: (config: ConfigService) => {
        built = new PlatformClient({
          baseUrl: config.getOrThrow<string>('PLATFORM_BASE_URL'), clientId: config.getOrThrow<string>('PLATFORM_CLIENT_ID'),
          clientSecret: config.getOrThrow<string>('PLATFORM_CLIENT_SECRET'), gameId: config.getOrThrow<string>('PLATFORM_GAME_ID'),
        });
        return { client: built };
      },
    });
    const app = await serve(await NestFactory.create(AppModule.with(platform), { logger: false }));
    try {
      const ok = await app.get('/api/me', fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(ok.status).toBe(200);
      expect(await ok.json()).toEqual({ member_no: DEFAULT_MEMBERS.player, guid: '200000000401' });
      const device = await app.get('/api/me', fixture.emulator.login(DEFAULT_MEMBERS.unregisteredDevice).access_token);
      expect(device.status).toBe(403);
      expect(await device.json()).toMatchObject({ action: 'register_device', code: 46217 });
      expect((await app.get('/healthz')).status).toBe(200);
    } finally {
      await app.close();
      void built?.close();
    }
  });

  it('provides its client for injection under GAME_PLATFORM_CLIENT, from forRoot and from forRootAsync', async () => {
    const client = clients.create();
    @Injectable()
    class Uses {
      readonly client: PlatformClient;

      constructor(client: PlatformClient) {
        this.client = client;
      }
    }
    Inject(GAME_PLATFORM_CLIENT)(Uses, undefined, 0);
    for (const platform of [GamePlatformModule.forRoot({ client }), GamePlatformModule.forRootAsync({ useFactory: async () => ({ client }) })]) {
      @Module({ imports: [platform], providers: [Uses] })
      class WithClient {}
      const context = await NestFactory.createApplicationContext(WithClient, { logger: false });
      try {
        expect(context.get(Uses).client).toBe(client);
      } finally {
        await context.close();
      }
    }
  });

  it('names the option when forRoot is given a wrong one', () => {
    expect(() => GamePlatformModule.forRoot({ client: {} as PlatformClient })).toThrow(
      new TypeError('GamePlatformModule: options.client must have a verifyUserToken(token) method (a PlatformClient)'),
    );
    expect(() => GamePlatformModule.forRoot({ client: clients.create(), realm: '' })).toThrow(
      new TypeError('GamePlatformModule: options.realm must be a non-empty string'),
    );
  });

  it('fails the app\'s startup when forRootAsync resolves wrong options', async () => {
    const platform = GamePlatformModule.forRootAsync({ useFactory: async () => ({ client: {} as PlatformClient }) });
    await expect(NestFactory.create(AppModule.with(platform), { logger: false, abortOnError: false })).rejects.toThrow(
      'GamePlatformModule: options.client must have a verifyUserToken(token) method (a PlatformClient)',
    );
  });

  it('gives mapUser the request and @GameUser() the mapped player; other errors stay Nest\'s', async () => {
    const seen: string[] = [];
    @Controller('api')
    @UseGuards(GamePlatformGuard)
    class LevelController {
      @Get('level')
      level(@GameUser() user: { memberNo: string; level: number }): { member_no: string; level: number } {
        return { member_no: user.memberNo, level: user.level };
      }
    }
    @Module({
      imports: [GamePlatformModule.forRoot({
        client: clients.create(),
        mapUser: (_user, req) => {
          seen.push((req as { url: string }).url);
          return { level: 7 };
        },
      })],
      controllers: [LevelController],
    })
    class LevelModule {}
    const app = await serve(await NestFactory.create(LevelModule, { logger: false }));
    try {
      const res = await app.get('/api/level', fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(await res.json()).toEqual({ member_no: DEFAULT_MEMBERS.player, level: 7 });
      expect(seen).toEqual(['/api/level']);
      const missing = await app.get('/nowhere');
      expect(missing.status).toBe(404);
      expect(missing.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await missing.json()).toMatchObject({ statusCode: 404 });
    } finally {
      await app.close();
    }
  });

  it('without passportResult, @nestjs/passport answers a 46217 with a bare 401 (what the README\'s lines fix)', async () => {
    passport.use('game-platform-unpatched', new PlatformBearerStrategy({ client: clients.create(), logger: recordingLogger() }));
    @Injectable()
    class PlainGuard extends AuthGuard('game-platform-unpatched') {}
    @Controller('api')
    class PlainController {
      @Get('me')
      @UseGuards(PlainGuard)
      me(@GameUser() user: { memberNo: string }): string {
        return user.memberNo;
      }
    }
    @Module({ imports: [GamePlatformModule.forRoot({ client: clients.create(), logger: recordingLogger() })], controllers: [PlainController] })
    class PlainModule {}
    const app = await serve(await NestFactory.create(PlainModule, { logger: false }));
    try {
      const res = await app.get('/api/me', fixture.emulator.login(DEFAULT_MEMBERS.unregisteredDevice).access_token);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ message: 'Unauthorized', statusCode: 401 });
    } finally {
      await app.close();
    }
  });

  it('logs a server-side fault once a minute to the module\'s logger, with the code and no secret', async () => {
    const logger = recordingLogger();
    const app = await serve(await NestFactory.create(
      AppModule.with(GamePlatformModule.forRoot({ client: clients.create({ clientSecret: 'wrong-secret' }), logger })), { logger: false },
    ));
    try {
      const token = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
      for (let i = 0; i < 3; i += 1) expect((await app.get('/api/me', token)).status).toBe(500);
      expect(logger.lines.filter((l) => l.level === 'error')).toEqual([
        { level: 'error', obj: { kind: 'configuration', code: 40105, status: 500 }, msg: expect.stringContaining('40105') },
      ]);
      expect(JSON.stringify(logger.lines)).not.toContain('wrong-secret');
    } finally {
      await app.close();
    }
  });

  it('refuses to guard a context that is neither HTTP nor a gateway', async () => {
    const guard = new GamePlatformGuard({
      authenticate: async () => ({ memberNo: '1', guid: null }), authenticateHandshake: async () => ({ memberNo: '1', guid: null }), logFault: () => {}, realm: 'r',
    });
    const context = { getType: () => 'rpc' } as unknown as ExecutionContext;
    await expect(guard.canActivate(context)).rejects.toThrow('GamePlatformGuard protects HTTP routes and Socket.IO gateways');
  });
});
