import type { GameUser } from '../lib/types.js';

/** The JSON the app answers for a member: identifiers as exact digit strings. */
export interface MemberBody {
  member_no: string;
  guid: string | null;
}

export function memberBody(user: GameUser): MemberBody {
  return { member_no: user.memberNo, guid: user.guid };
}
