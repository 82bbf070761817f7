import { isLosslessNumber, parse } from 'lossless-json';
import { errorForTransportFault } from '../errors/index.js';
import type { PlatformEndpoint } from '../errors/index.js';

/** A platform JSON body with an integer `code`. Numbers inside stay lossless. */
export interface PlatformBody {
  readonly code: number;
  readonly fields: Readonly<Record<string, unknown>>;
}

/** A body that is not the platform's JSON (HTML error page, garbage, no `code`). */
export class BadBody {
  constructor(readonly reason: string) {}
}

export type ParsedBody = PlatformBody | BadBody;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isLosslessNumber(value);
}

function readCode(value: unknown): number | undefined {
  const text = isLosslessNumber(value) ? value.value : typeof value === 'number' ? String(value) : undefined;
  if (text === undefined || !/^-?\d{1,15}$/.test(text)) return undefined;
  return Number(text);
}

/**
 * Parses with lossless-json so identifiers above 2^53 keep their digits.
 * Never throws: a body that is not the platform's JSON is a {@link BadBody}.
 */
export function parsePlatformBody(text: unknown): ParsedBody {
  if (typeof text !== 'string' || text.trim() === '') return new BadBody('empty body');
  let json: unknown;
  try {
    json = parse(text);
  } catch {
    return new BadBody('not JSON');
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
  const text = isLosslessNumber(value) ? value.value : typeof value === 'string' ? value : undefined;
  if (text === undefined || !/^\d{1,40}$/.test(text)) {
    throw errorForTransportFault('bad_body', endpoint, `${key} is not a decimal identifier`);
  }
  return text;
}
