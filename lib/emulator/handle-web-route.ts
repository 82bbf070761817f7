import { PlatformCode } from '../errors/index.js';
import { sendCode, sendMember } from './platform-reply.js';
import { authorizationCredential } from './request-log.js';
import type { EmulatorContext } from './context.js';
import type { Exchange } from './http-io.js';

/**
 * Web token route: `GET /member/v3.0/{game_id}` with no query and `Authorization: Bearer <web
 * token>`. Answers E3's shape for the token's member; any failure (no or unknown token, expired,
 * logged out, unknown game) is 40000 "bad request" (HTTP 200 in the platform style).
 */
export function handleWebRoute(x: Exchange, ctx: EmulatorContext, gameId: string): void {
  const auth = authorizationCredential(x.req.headers.authorization);
  const memberNo = auth && auth.scheme.toLowerCase() === 'bearer' ? ctx.users.verifyWeb(auth.credential, ctx.clock.now()) : null;
  const member = memberNo !== null && ctx.isGame(gameId) ? ctx.member(memberNo) : undefined;
  if (!member) return sendCode(x, 'web', ctx.options.errorStatus, PlatformCode.BAD_REQUEST);
  sendMember(x, ctx.options.identifiers, member.member_no, member.guids[gameId] ?? null);
}
