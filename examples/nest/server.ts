// `npx tsx examples/nest/server.ts`: PORT (default 3002), NEST_PLATFORM=express|fastify;
// PLATFORM_* read through Nest's ConfigService, or an embedded emulator.
import 'reflect-metadata';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { PlatformClient } from 'passport-game-platform';
import { GamePlatformModule } from 'passport-game-platform/nest';
import { demoBanner, platformEnv } from '../shared/platform-from-env.js';
import { AppModule } from './app-module.js';

const { env, emulator } = await platformEnv(process.env);
let client: PlatformClient | undefined;
const platform = GamePlatformModule.forRootAsync({
  imports: [ConfigModule.forRoot({ ignoreEnvFile: true, load: [() => env] })],
  inject: [ConfigService],
  useFactory: (config: ConfigService) => {
    client = new PlatformClient({
      baseUrl: config.getOrThrow<string>('PLATFORM_BASE_URL'),
      clientId: config.getOrThrow<string>('PLATFORM_CLIENT_ID'),
      clientSecret: config.getOrThrow<string>('PLATFORM_CLIENT_SECRET'),
      gameId: config.getOrThrow<string>('PLATFORM_GAME_ID'),
    });
    return { client };
  },
});
const onFastify = process.env.NEST_PLATFORM === 'fastify';
const app = onFastify
  ? await NestFactory.create(AppModule.with(platform), new FastifyAdapter(), { logger: ['error', 'warn'] })
  : await NestFactory.create(AppModule.with(platform), { logger: ['error', 'warn'] });
await app.listen(Number(process.env.PORT ?? 3002), '127.0.0.1');
console.log(demoBanner(`NestJS (${onFastify ? 'Fastify' : 'Express'} platform)`, (await app.getUrl()).replace('[::1]', '127.0.0.1'), emulator));
const stop = (): void => {
  void app.close().then(async () => {
    void client?.close();
    await emulator?.close();
    process.exit(0);
  });
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
