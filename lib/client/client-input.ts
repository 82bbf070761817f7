import { PlatformError } from '../errors/index.js';

/** What to look up on E3: a member_no or a guid, as decimal digits. */
export type MemberQuery = { memberNo: string } | { guid: string };

function badQuery(detail: string): PlatformError {
  return new PlatformError({ kind: 'invalid_request', status: 400, action: 'none', message: `Invalid member lookup: ${detail}.` });
}

/** Checks an E3 query before any call; returns the platform's search_type and value. */
export function searchParams(query: unknown): { search_type: 'member_no' | 'guid'; value: string } {
  if (typeof query !== 'object' || query === null) throw badQuery('give { memberNo } or { guid }');
  const q = query as Record<string, unknown>;
  const hasMember = q.memberNo !== undefined;
  const hasGuid = q.guid !== undefined;
  if (hasMember === hasGuid) throw badQuery('give exactly one of memberNo and guid');
  const value = hasMember ? q.memberNo : q.guid;
  const name = hasMember ? 'memberNo' : 'guid';
  if (typeof value !== 'string' || !/^\d{1,40}$/.test(value)) throw badQuery(`${name} must be a string of decimal digits`);
  return { search_type: hasMember ? 'member_no' : 'guid', value };
}
