import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import { isRecord, readIdentifier } from '../http/index.js';
import type { PlatformReply } from '../http/index.js';
import type { GameUser } from '../types.js';

/**
 * The member in a successful reply's `value` (E2, E3 and web share the shape),
 * identifiers as exact decimal strings; `null` when there is no `value`.
 */
export function memberFromReply(reply: PlatformReply, endpoint: PlatformEndpoint): GameUser | null {
  const value = Object.hasOwn(reply.fields, 'value') ? reply.fields.value : undefined;
  if (value === undefined || value === null) return null;
  if (!isRecord(value)) throw errorForTransportFault('bad_body', endpoint, 'value is not an object');
  const memberNo = readIdentifier(value, 'member_no', endpoint);
  if (memberNo === null) throw errorForTransportFault('bad_body', endpoint, 'value.member_no is missing');
  return { memberNo, guid: readIdentifier(value, 'guid', endpoint) };
}

/** Like {@link memberFromReply}, for calls whose success must name a member. */
export function requireMember(reply: PlatformReply, endpoint: PlatformEndpoint): GameUser {
  const member = memberFromReply(reply, endpoint);
  if (member === null) throw errorForTransportFault('bad_body', endpoint, 'success without value');
  return member;
}
