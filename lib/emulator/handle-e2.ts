import { PlatformCode } from '../errors/index.js';
import { authenticateApiToken } from './api-token-auth.js';
import { parseJsonObject, readBody, type Exchange } from './http-io.js';
import { sendCode, sendMember } from './platform-reply.js';
import type { EmulatorContext } from './context.js';

/**
 * E2 `POST /member/v3.0/{game_id}/token/verify`. Checks in this order: API token (40101/40103),
 * game_id against the token's service_id (41002), body and user token (40000: missing, not a
 * string, unknown, expired, refreshed away, logged out, or issued for another game), device
 * registration (46217).
 */
export async function handleE2(x: Exchange, ctx: EmulatorContext, gameId: string): Promise<void> {
  const style = ctx.options.errorStatus;
  const text = await readBody(x.req);
  const api = authenticateApiToken(x, ctx, 'E2');
  if (!api) return;
  if (gameId !== api.serviceId) return sendCode(x, 'E2', style, PlatformCode.GAME_ID_MISMATCH);
  const token = parseJsonObject(text)?.access_token;
  const session = typeof token === 'string' && token !== '' ? ctx.users.verify(token, ctx.clock.now()) : null;
  const member = session && session.gameId === gameId ? ctx.member(session.memberNo) : undefined;
  if (!member) return sendCode(x, 'E2', style, PlatformCode.BAD_REQUEST);
  if (!member.device_registered) return sendCode(x, 'E2', style, PlatformCode.DEVICE_NOT_REGISTERED);
  sendMember(x, ctx.options.identifiers, member.member_no, member.guids[gameId] ?? null);
}
