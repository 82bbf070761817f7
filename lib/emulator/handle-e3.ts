import { PlatformCode } from '../errors/index.js';
import { authenticateApiToken } from './api-token-auth.js';
import { asDigits, sendJson, type Exchange } from './http-io.js';
import { messageFor, sendCode, sendMember } from './platform-reply.js';
import type { EmulatorContext } from './context.js';

function single(params: URLSearchParams, name: string): string | null {
  const all = params.getAll(name);
  return all.length === 1 ? (all[0] ?? null) : null;
}

/**
 * E3 `GET /member/v3.0/{game_id}?search_type=member_no|guid&value=<digits>` (search_type in any
 * case). API token first (HTTP 401 with 40101/40103), then game_id (41002), then the query
 * (40000 when missing, repeated or invalid). A member that does not exist is HTTP 200
 * `{"code":0,"message":"success"}` with no `value`.
 */
export function handleE3(x: Exchange, ctx: EmulatorContext, gameId: string): void {
  const style = ctx.options.errorStatus;
  const api = authenticateApiToken(x, ctx, 'E3');
  if (!api) return;
  if (gameId !== api.serviceId) return sendCode(x, 'E3', style, PlatformCode.GAME_ID_MISMATCH);
  const type = single(x.url.searchParams, 'search_type')?.toLowerCase();
  const value = asDigits(single(x.url.searchParams, 'value'));
  if ((type !== 'member_no' && type !== 'guid') || value === null) {
    return sendCode(x, 'E3', style, PlatformCode.BAD_REQUEST);
  }
  const member = type === 'member_no' ? ctx.member(value) : ctx.memberByGuid(gameId, value);
  if (!member) {
    return sendJson(x, 200, { code: PlatformCode.SUCCESS, message: messageFor(PlatformCode.SUCCESS) });
  }
  sendMember(x, ctx.options.identifiers, member.member_no, member.guids[gameId] ?? null);
}
