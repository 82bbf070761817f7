// A Nest-only app (Express platform): compiled under strict without skipLibCheck, then run.
import 'reflect-metadata';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { AddressInfo } from 'node:net';
import { PlatformClient, type GameUser as Player } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { GamePlatformGuard, GamePlatformModule, GameUser } from 'passport-game-platform/nest';
import { check } from './check.mjs';

const emulator = await startEmulator();

@Controller('api')
@UseGuards(GamePlatformGuard)
class MeController {
  @Get('me')
  me(@GameUser() user: Player): { member_no: string; guid: string | null } {
    return { member_no: user.memberNo, guid: user.guid };
  }
}

@Module({
  imports: [GamePlatformModule.forRootAsync({
    useFactory: async () => ({
      client: new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' }),
    }),
  })],
  controllers: [MeController],
})
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(0, '127.0.0.1');
const { port } = app.getHttpServer().address() as AddressInfo;
await check(`http://127.0.0.1:${port}`, emulator, DEFAULT_MEMBERS);
await app.close();
await emulator.close();
process.exit(0); // the client made in the factory keeps its keep-alive agent
