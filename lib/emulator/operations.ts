import { EmulatorInputError } from './errors.js';
import { asDigits } from './http-io.js';
import type { EmulatorContext } from './context.js';
import type { TokenPair } from './types.js';

function knownMember(ctx: EmulatorContext, memberNo: unknown): string {
  const digits = asDigits(memberNo);
  if (digits === null) throw new EmulatorInputError('member_no must be a string of digits');
  if (!ctx.member(digits)) throw new EmulatorInputError(`member_no ${digits} is not a seeded member`);
  return digits;
}

function nonEmpty(name: string, v: unknown): string {
  if (typeof v !== 'string' || v === '') throw new EmulatorInputError(`${name} must be a non-empty string`);
  return v;
}

/** Test-control operations shared by the in-process API and `/_emulator/*`. */
export function login(ctx: EmulatorContext, memberNo: unknown, gameId?: unknown): TokenPair {
  const member = knownMember(ctx, memberNo);
  const game = gameId === undefined || gameId === null ? ctx.defaultGameId : nonEmpty('game_id', gameId);
  if (!ctx.isGame(game)) throw new EmulatorInputError(`game_id "${game}" is not the service_id of any seeded client`);
  return ctx.users.login(member, game, ctx.clock.now());
}

export function refresh(ctx: EmulatorContext, refreshToken: unknown): TokenPair {
  return ctx.users.refresh(nonEmpty('refresh_token', refreshToken), ctx.clock.now());
}

export function logout(ctx: EmulatorContext, accessToken: unknown): void {
  ctx.users.logout(nonEmpty('access_token', accessToken));
}

export function issueWebToken(ctx: EmulatorContext, memberNo: unknown): string {
  return ctx.users.issueWeb(knownMember(ctx, memberNo), ctx.clock.now());
}
