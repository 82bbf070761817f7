import { Router } from 'express';
import { extractBearerToken, PlatformError, requireGameUser } from '../../lib/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { requireAdmin } from './require-admin.js';

const DIGITS = /^[0-9]{1,30}$/;

// What the platform client offers for ending sessions across instances (when the app shares a revocation bus).
interface SessionEnder {
  revokeUserToken?(token: string): Promise<void>;
  endMemberSessions?(memberNo: string, reason: 'admin'): Promise<void>;
  forgetUserToken?(token: string): unknown;
}

/**
 * `POST /api/logout` (bearer): revokes the caller's token and ends its live
 * connections (`session:ended` `logout`), 204.
 * `POST /admin/members/<member_no>/disconnect` (bearer, admin): ends that
 * member's live connections (`session:ended` `admin`), 202.
 */
export function sessionRoutes(config: ResolvedAppConfig): Router {
  const router = Router();
  const { registry } = config.realtime;
  const client = config.client as unknown as SessionEnder;
  const auth = requireGameUser({ client: config.client, realm: config.realm, logger: config.logger });
  router.post('/api/logout', auth, async (req, res) => {
    const { token } = extractBearerToken(req);
    if (typeof client.revokeUserToken === 'function') await client.revokeUserToken(token);
    else await client.forgetUserToken?.(token);
    registry.endToken(tokenKey(token), 'logout');
    res.status(204).end();
  });
  const admin = requireAdmin(config, 'disconnect members');
  router.post('/admin/members/:memberNo/disconnect', admin, async (req, res) => {
    const memberNo = req.params.memberNo;
    if (typeof memberNo !== 'string' || !DIGITS.test(memberNo)) {
      throw new PlatformError({ kind: 'not_found', message: 'member_no must be 1 to 30 digits.' });
    }
    // The client's 'session-end' event may end this instance's connections before endMember runs:
    // count them first.
    const live = registry.byMember(memberNo).length;
    if (typeof client.endMemberSessions === 'function') await client.endMemberSessions(memberNo, 'admin');
    const ended = registry.endMember(memberNo, 'admin');
    res.status(202).set('Cache-Control', 'no-store').json({ member_no: memberNo, disconnected_here: Math.max(live, ended) });
  });
  return router;
}
