import { PlatformCode } from '../errors/index.js';
import { sendCode, type PlatformRoute } from './platform-reply.js';
import { authorizationCredential } from './request-log.js';
import type { ApiTokenRecord } from './api-token-store.js';
import type { EmulatorContext } from './context.js';
import type { Exchange } from './http-io.js';

/**
 * Checks `Authorization: Bearer <API token>` of an E2/E3 call. Answers 40101 (missing, not
 * Bearer, unknown) or, on E2, 40103 (expired) itself and returns null; else the token's record.
 * E3's return table lists only 40101 for a bad token, so an expired one is 40101 there.
 */
export function authenticateApiToken(x: Exchange, ctx: EmulatorContext, route: PlatformRoute): ApiTokenRecord | null {
  const auth = authorizationCredential(x.req.headers.authorization);
  if (!auth || auth.scheme.toLowerCase() !== 'bearer') {
    sendCode(x, route, ctx.options.errorStatus, PlatformCode.INVALID_API_TOKEN);
    return null;
  }
  const check = ctx.apiTokens.check(auth.credential, ctx.clock.now());
  if (!check.ok) {
    const code = check.reason === 'expired' && route === 'E2' ? PlatformCode.EXPIRED_API_TOKEN : PlatformCode.INVALID_API_TOKEN;
    sendCode(x, route, ctx.options.errorStatus, code);
    return null;
  }
  return check.record;
}
