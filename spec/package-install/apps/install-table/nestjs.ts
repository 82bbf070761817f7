// The NestJS row: the module, the guard and @GameUser() on Express.
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import { Controller, Get, Module, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { PlatformClient, type GameUser as Player } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { GamePlatformGuard, GamePlatformModule, GameUser } from 'passport-game-platform/nest';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });

@Controller('api')
@UseGuards(GamePlatformGuard)
class MeController {
  @Get('me')
  me(@GameUser() user: Player): { member_no: string } {
    return { member_no: user.memberNo };
  }
}
@Module({ imports: [GamePlatformModule.forRoot({ client })], controllers: [MeController] })
class AppModule {}

const app = await NestFactory.create(AppModule, { logger: false });
await app.listen(0, '127.0.0.1');
const url = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}/api/me`;
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const valid = (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).status;
const none = (await fetch(url)).status;
process.stdout.write(`${JSON.stringify({ '200 for a valid token': valid === 200, '401 for none': none === 401 })}\n`);
await app.close();
await client.close();
await emulator.close();
