// A NestJS game backend protected by passport-game-platform/nest.
import 'reflect-metadata';
import { Controller, Get, Module, UseGuards, type DynamicModule } from '@nestjs/common';
import type { GameUser as Player } from 'passport-game-platform';
import { GamePlatformGuard, GameUser } from 'passport-game-platform/nest';

@Controller()
export class HealthController {
  @Get('healthz')
  health(): { status: string } {
    return { status: 'ok' };
  }
}

@Controller('api')
@UseGuards(GamePlatformGuard)
export class MeController {
  @Get('me')
  me(@GameUser() user: Player): { member_no: string; guid: string | null } {
    return { member_no: user.memberNo, guid: user.guid };
  }
}

@Module({})
export class AppModule {
  /** The app with `GamePlatformModule.forRoot(...)` or `.forRootAsync(...)` as `platform`. */
  static with(platform: DynamicModule): DynamicModule {
    return { module: AppModule, imports: [platform], controllers: [HealthController, MeController] };
  }
}
