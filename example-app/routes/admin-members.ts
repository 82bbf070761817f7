import { Router } from 'express';
import type { Request } from 'express';
import { PlatformError, sendProblem } from '../../lib/index.js';
import type { ResolvedAppConfig } from '../app-config.js';
import { memberBody } from '../member-body.js';
import { requireAdmin } from './require-admin.js';

const SEARCH_TYPES = new Set(['member_no', 'guid']);
const DIGITS = /^[0-9]{1,30}$/;

type Query = { memberNo: string } | { guid: string };

/** The lookup asked for, or a sentence saying what is wrong with the query. */
function parseQuery(req: Request): Query | string {
  const params = new URLSearchParams(req.originalUrl.split('?')[1] ?? '');
  const searchTypes = params.getAll('search_type');
  const values = params.getAll('value');
  if (searchTypes.length !== 1 || values.length !== 1) {
    return 'Give exactly one search_type (member_no or guid) and one value.';
  }
  const searchType = searchTypes[0]!.toLowerCase();
  const value = values[0]!;
  if (!SEARCH_TYPES.has(searchType)) return 'search_type must be member_no or guid.';
  if (!DIGITS.test(value)) return 'value must be a member_no or guid: 1 to 30 digits.';
  return searchType === 'guid' ? { guid: value } : { memberNo: value };
}

/**
 * `GET /admin/members?search_type=member_no|guid&value=<digits>`: E3 lookup for
 * players whose member_no is in `ADMIN_MEMBER_NOS` (else 403 `access_denied`).
 */
export function adminMemberRoutes(config: ResolvedAppConfig): Router {
  const router = Router();
  const auth = requireAdmin(config, 'look members up');
  router.get('/admin/members', auth, async (req, res) => {
    const query = parseQuery(req);
    if (typeof query === 'string') {
      sendProblem(res, {
        body: { type: 'urn:example-app:problem:invalid_query', title: 'Invalid query', status: 400, action: 'none', detail: query },
        headers: {},
      });
      return;
    }
    const member = await config.client.lookupMember(query);
    if (member === null) {
      throw new PlatformError({ kind: 'not_found', message: 'No member has this identifier in this game.' });
    }
    res.set('Cache-Control', 'no-store').json(memberBody(member));
  });
  return router;
}
