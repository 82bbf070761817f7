import type { RequestHandler } from 'express';
import { accessDenied, requireGameUser } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';

/** Authenticates the player and lets only `ADMIN_MEMBER_NOS` through (else 403 `access_denied`, saying what they may not do). */
export function requireAdmin(config: ResolvedAppConfig, action: string): RequestHandler {
  return requireGameUser({
    client: config.client,
    realm: config.realm,
    logger: config.logger,
    authorize: (user) => {
      if (!config.adminMemberNos.has(user.memberNo)) throw accessDenied({ detail: `Only administrators (ADMIN_MEMBER_NOS) may ${action}.` });
    },
  });
}
