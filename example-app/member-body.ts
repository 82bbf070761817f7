import type { GameUser } from '../lib/types.js';

/** The JSON the app answers for a member: identifiers as exact digit strings. */
export interface MemberBody {
  member_no: string;
  guid: string | null;
  /** Present (true) only when the platform was out of service and the answer came from the outage grace. */
  served_in_grace?: true;
}

export function memberBody(user: GameUser): MemberBody {
  return user.servedInGrace === true
    ? { member_no: user.memberNo, guid: user.guid, served_in_grace: true }
    : { member_no: user.memberNo, guid: user.guid };
}
