import { EmulatorSeedError } from './errors.js';
import type { SeedClient, SeedMember } from './types.js';

export type { EmulatorSeed, SeedClient, SeedMember } from './types.js';

/** Default API token lifetime: 720 hours. */
export const DEFAULT_API_TOKEN_TTL_SECONDS = 30 * 24 * 3600;

const DIGITS = /^(0|[1-9][0-9]{0,29})$/;

function fail(message: string): never {
  throw new EmulatorSeedError(message);
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function requireString(obj: Record<string, unknown>, key: string, where: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || v.length === 0) fail(`${where}.${key} must be a non-empty string`);
  return v;
}

/** A client after validation (lifetime filled in). */
export type ValidClient = Readonly<Required<Omit<SeedClient, 'environment'>> & Pick<SeedClient, 'environment'>>;
/** A member after validation (guids and device flag filled in). */
export type ValidMember = Readonly<Required<Omit<SeedMember, 'nickname'>> & Pick<SeedMember, 'nickname'>>;

function checkClient(raw: unknown, i: number): ValidClient {
  const where = `seed.clients[${i}]`;
  if (!isRecord(raw)) fail(`${where} must be an object`);
  const client_id = requireString(raw, 'client_id', where);
  const client_secret = requireString(raw, 'client_secret', where);
  const service_id = requireString(raw, 'service_id', where);
  const ttl = raw.api_token_ttl_seconds ?? DEFAULT_API_TOKEN_TTL_SECONDS;
  if (typeof ttl !== 'number' || !Number.isSafeInteger(ttl) || ttl <= 0) {
    fail(`${where}.api_token_ttl_seconds must be a positive integer`);
  }
  const env = raw.environment;
  if (env !== undefined && env !== 'live' && env !== 'sandbox') {
    fail(`${where}.environment must be "live" or "sandbox"`);
  }
  return { client_id, client_secret, service_id, api_token_ttl_seconds: ttl, environment: env };
}

function checkMember(raw: unknown, i: number): ValidMember {
  const where = `seed.members[${i}]`;
  if (!isRecord(raw)) fail(`${where} must be an object`);
  if (typeof raw.member_no !== 'string' || !DIGITS.test(raw.member_no)) {
    fail(`${where}.member_no must be a string of digits (no leading zeros)`);
  }
  const guidsRaw = raw.guids ?? {};
  if (!isRecord(guidsRaw)) fail(`${where}.guids must be an object mapping game_id to a guid`);
  const guids: Record<string, string> = {};
  for (const [gameId, guid] of Object.entries(guidsRaw)) {
    if (typeof guid !== 'string' || !DIGITS.test(guid)) {
      fail(`${where}.guids["${gameId}"] must be a string of digits (no leading zeros)`);
    }
    guids[gameId] = guid;
  }
  const device = raw.device_registered ?? true;
  if (typeof device !== 'boolean') fail(`${where}.device_registered must be a boolean`);
  if (raw.nickname !== undefined && typeof raw.nickname !== 'string') fail(`${where}.nickname must be a string`);
  return { member_no: raw.member_no, guids, device_registered: device, nickname: raw.nickname };
}

/** A seed after validation: defaults filled in, deep-copied and frozen. */
export interface ValidSeed {
  readonly clients: readonly ValidClient[];
  readonly members: readonly ValidMember[];
}

/**
 * Checks a seed and fills in defaults. Throws {@link EmulatorSeedError} naming the bad field,
 * e.g. `seed.members[2].member_no must be a string of digits`.
 *
 * @example
 * ```ts
 * const seed = validateSeed(JSON.parse(readFileSync('seed.json', 'utf8')));
 * ```
 */
export function validateSeed(raw: unknown): ValidSeed {
  if (!isRecord(raw)) fail('seed must be an object with "clients" and "members" arrays');
  if (!Array.isArray(raw.clients) || raw.clients.length === 0) fail('seed.clients must be a non-empty array');
  if (!Array.isArray(raw.members)) fail('seed.members must be an array');
  const clients = raw.clients.map(checkClient);
  const members = raw.members.map(checkMember);
  const ids = new Set<string>();
  clients.forEach((c, i) => {
    if (ids.has(c.client_id)) fail(`seed.clients[${i}].client_id "${c.client_id}" is a duplicate`);
    ids.add(c.client_id);
  });
  const nos = new Set<string>();
  members.forEach((m, i) => {
    if (nos.has(m.member_no)) fail(`seed.members[${i}].member_no "${m.member_no}" is a duplicate`);
    nos.add(m.member_no);
  });
  const guidOwners = new Map<string, number>();
  members.forEach((m, i) => {
    for (const [gameId, guid] of Object.entries(m.guids)) {
      const key = `${gameId}\u0000${guid}`;
      if (guidOwners.has(key)) fail(`seed.members[${i}].guids["${gameId}"] "${guid}" is used by seed.members[${guidOwners.get(key)}] too`);
      guidOwners.set(key, i);
    }
  });
  const freeze = <T extends object>(o: T): Readonly<T> => Object.freeze(o);
  return Object.freeze({
    clients: Object.freeze(clients.map(freeze)),
    members: Object.freeze(members.map((m) => freeze({ ...m, guids: Object.freeze(m.guids) }))),
  });
}
