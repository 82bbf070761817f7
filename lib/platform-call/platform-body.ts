// The platform's JSON answer, read once for all: parsed with its identifiers' digits kept, its
// `code`, and the member its `value` names (E2, E3 and the web-token check share the shape).
import { isLosslessNumber, parse } from 'lossless-json';
import { errorForTransportFault, PlatformCode } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';
import type { GameUser } from '../types.js';

/** 40101/40103: our API token was refused; the call reissues it and runs once more. */
export function isApiTokenRejection(code: number): boolean {
  return code === PlatformCode.INVALID_API_TOKEN || code === PlatformCode.EXPIRED_API_TOKEN;
}

/** 50000: the platform's "unknown error", retried like a 5xx (any other code is an answer). */
export function isTransientCode(code: number): boolean {
  return code === PlatformCode.UNKNOWN_ERROR;
}

/** A platform JSON body with an integer `code`. Numbers inside stay lossless. */
export interface PlatformBody {
  readonly code: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A body that is not the platform's JSON (HTML error page, garbage, no `code`). */
export class BadBody {
  readonly reason: string;

  constructor(reason: string) {
    this.reason = reason;
  }
}

export type ParsedBody = PlatformBody | BadBody;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

/** The longest run of digits that a JavaScript number keeps exactly (2^53 has 16). */
const EXACT_DIGITS = 15;

/**
 * The object keys of a JSON text that `JSON.parse` has accepted, or -1 when
 * one of its numbers is not a plain integer of at most 15 digits (a sign, a
 * fraction, an exponent, or more digits than a double keeps).
 */
function plainKeyCount(text: string): number {
  let keys = 0;
  let digits = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // A string: skip to its closing quote (the text is valid JSON, escapes are two characters).
      let end = i + 1;
      for (let d = text.charCodeAt(end); d !== 0x22; d = text.charCodeAt(end)) end += d === 0x5c ? 2 : 1;
      let next = end + 1;
      for (let d = text.charCodeAt(next); d === 0x20 || d === 0x09 || d === 0x0a || d === 0x0d; d = text.charCodeAt(next)) next += 1;
      if (text.charCodeAt(next) === 0x3a) keys += 1;
      i = end;
      digits = 0;
    } else if (c >= 0x30 && c <= 0x39) {
      digits += 1;
      if (digits > EXACT_DIGITS) return -1;
    } else {
      // A sign, a fraction or an exponent ('e' after digits; the 'e' of true and false follows letters).
      if (c === 0x2d || c === 0x2e || ((c === 0x65 || c === 0x45) && digits > 0)) return -1;
      digits = 0;
    }
  }
  return keys;
}

/** The keys of every object in a parsed JSON value. */
function keyCount(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += keyCount(item);
    return count;
  }
  for (const key of Object.keys(value)) count += 1 + keyCount((value as Record<string, unknown>)[key]);
  return count;
}

/**
 * The engine's parser when it reads the text exactly: every number a plain
 * integer of at most 15 digits and no key given twice. Otherwise lossless-json,
 * which keeps every digit and refuses a key given twice with different values.
 * The engine's parser is about twice as fast per answer.
 */
function parseExact(text: string): unknown {
  const json: unknown = JSON.parse(text);
  const keys = plainKeyCount(text);
  return keys !== -1 && keys === keyCount(json) ? json : parse(text);
}

function readCode(value: unknown): number | undefined {
  // A JavaScript number is exact here (see parseExact): an integer is the code as sent.
  if (typeof value === 'number') return Number.isInteger(value) ? value : undefined;
  const text = isLosslessNumber(value) ? value.value : undefined;
  if (text === undefined || !/^-?\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Parses so that identifiers above 2^53 keep their digits (a number is a
 * JavaScript number only when it is exact, a LosslessNumber otherwise), and
 * a key given twice with different values is not JSON. Never throws: a body
 * that is not the platform's JSON is a {@link BadBody}.
 */
export function parsePlatformBody(text: unknown): ParsedBody {
  if (typeof text !== 'string') return new BadBody('empty body');
  let json: unknown;
  try {
    json = parseExact(text);
  } catch {
    return new BadBody(text.trim() === '' ? 'empty body' : 'not JSON');
  }
  if (!isRecord(json)) return new BadBody('not a JSON object');
  const code = readCode(json.code);
  if (code === undefined) return new BadBody('no integer code');
  return { code, fields: json };
}

/** The object under `key`, `undefined` when absent or null. */
export function readObject(fields: Readonly<Record<string, unknown>>, key: string): Record<string, unknown> | undefined {
  const value = Object.hasOwn(fields, key) ? fields[key] : undefined;
  return isRecord(value) ? value : undefined;
}

/**
 * An identifier as the exact decimal digits the platform sent, from a JSON
 * number or a JSON string; `null` when absent or null. Anything else (a
 * fraction, an exponent, a sign, letters) is a bad body.
 */
export function readIdentifier(
  record: Readonly<Record<string, unknown>>, key: string, endpoint: PlatformEndpoint,
): string | null {
  const value = Object.hasOwn(record, key) ? record[key] : undefined;
  if (value === undefined || value === null) return null;
  // A JavaScript number here is exact (see parseExact): a whole one is the digits as sent.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value);
  const text = isLosslessNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  if (text === undefined || !/^\d{1,40}$/.test(text)) {
    throw errorForTransportFault('bad_body', endpoint, `${key} is not a decimal identifier`);
  }
  return text;
}

/**
 * The member in a successful answer's `value` (E2, E3 and web share the shape),
 * identifiers as exact decimal strings; `null` when there is no `value`.
 */
export function memberFromReply(reply: PlatformBody, endpoint: PlatformEndpoint): GameUser | null {
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
export function verifiedIdentifiers(reply: PlatformBody, endpoint: PlatformEndpoint): VerifiedIdentifiers {
  const value = Object.hasOwn(reply.fields, 'value') ? reply.fields.value : undefined;
  if (!isRecord(value)) throw errorForTransportFault('bad_body', endpoint, 'success without a value object');
  const memberNo = readIdentifier(value, 'member_no', endpoint);
  const guid = readIdentifier(value, 'guid', endpoint);
  if (memberNo === null && guid === null) throw errorForTransportFault('bad_body', endpoint, 'value names no member');
  return { memberNo, guid };
}
