import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import { isRecord, readIdentifier } from '../platform-call/index.js';
import type { PlatformReply } from '../platform-call/index.js';
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

/** What a token verification names: member_no, guid, or both. */
export interface VerifiedIdentifiers {
  memberNo: string | null;
  guid: string | null;
}

/**
 * The identifiers of a successful token verification (E2, web). The platform
 * puts the guid (GUID-based games) or the member_no in `value`, so either may
 * be missing, but not both.
 */
export function verifiedIdentifiers(reply: PlatformReply, endpoint: PlatformEndpoint): VerifiedIdentifiers {
  const value = Object.hasOwn(reply.fields, 'value') ? reply.fields.value : undefined;
  if (!isRecord(value)) throw errorForTransportFault('bad_body', endpoint, 'success without a value object');
  const memberNo = readIdentifier(value, 'member_no', endpoint);
  const guid = readIdentifier(value, 'guid', endpoint);
  if (memberNo === null && guid === null) throw errorForTransportFault('bad_body', endpoint, 'value names no member');
  return { memberNo, guid };
}
