import { ApiTokenStore } from './api-token-store.js';
import { EmulatorClock } from './clock.js';
import { DEFAULT_SEED } from './default-seed.js';
import { EmulatorInputError } from './errors.js';
import { FaultQueue } from './fault-queue.js';
import { RequestLog } from './request-log.js';
import { validateSeed, type ValidClient, type ValidMember, type ValidSeed } from './seed.js';
import { UserTokenStore } from './user-token-store.js';
import type { EmulatorEnvironment, EmulatorOptions, ErrorStatusStyle } from './types.js';

/** Options with defaults filled in. */
export interface ResolvedEmulatorOptions {
  readonly port: number;
  readonly host: string;
  readonly environment: EmulatorEnvironment;
  readonly identifiers: 'number' | 'string';
  readonly errorStatus: ErrorStatusStyle;
  readonly webCookieName: string;
  readonly allowedRedirectHosts: readonly string[];
  readonly keepAliveTimeoutMs: number | undefined;
  readonly maxLogEntries: number;
  readonly clock: 'real' | 'frozen';
}

/** Everything a request handler needs: options, seed, clock and the stores. */
export interface EmulatorContext {
  readonly options: ResolvedEmulatorOptions;
  readonly seed: ValidSeed;
  readonly clock: EmulatorClock;
  readonly apiTokens: ApiTokenStore;
  readonly users: UserTokenStore;
  readonly faults: FaultQueue;
  readonly log: RequestLog;
  readonly defaultGameId: string;
  client(clientId: string): ValidClient | undefined;
  member(memberNo: string): ValidMember | undefined;
  memberByGuid(gameId: string, guid: string): ValidMember | undefined;
  isGame(gameId: string): boolean;
}

function oneOf<T extends string>(name: string, value: unknown, allowed: readonly T[], fallback: T): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value as T)) {
    throw new EmulatorInputError(`options.${name} must be one of ${allowed.map((a) => `'${a}'`).join(', ')}`);
  }
  return value as T;
}

function intOption(name: string, value: unknown, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw new EmulatorInputError(`options.${name} must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** Checks options once, naming the bad one in the error. */
export function resolveOptions(o: EmulatorOptions = {}): ResolvedEmulatorOptions {
  const cookie = o.webCookieName ?? 'SUAT';
  if (typeof cookie !== 'string' || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookie)) {
    throw new EmulatorInputError('options.webCookieName must be a cookie name (RFC 6265 token characters)');
  }
  const host = o.host ?? '127.0.0.1';
  if (typeof host !== 'string' || host === '') throw new EmulatorInputError('options.host must be a non-empty string');
  const redirectHosts = o.allowedRedirectHosts ?? [];
  if (!Array.isArray(redirectHosts) || !redirectHosts.every((h) => typeof h === 'string')) {
    throw new EmulatorInputError('options.allowedRedirectHosts must be an array of host names');
  }
  return Object.freeze({
    port: intOption('port', o.port, 0, 65535) ?? 0,
    host,
    environment: oneOf('environment', o.environment, ['live', 'sandbox'], 'live'),
    identifiers: oneOf('identifiers', o.identifiers, ['number', 'string'], 'number'),
    errorStatus: oneOf('errorStatus', o.errorStatus, ['platform', 'ok', 'http'], 'platform'),
    webCookieName: cookie,
    allowedRedirectHosts: Object.freeze(redirectHosts.map((h) => h.toLowerCase())),
    keepAliveTimeoutMs: intOption('keepAliveTimeoutMs', o.keepAliveTimeoutMs, 1, 2 ** 31 - 1),
    maxLogEntries: intOption('maxLogEntries', o.maxLogEntries, 1, 10_000_000) ?? 10_000,
    clock: oneOf('clock', o.clock, ['real', 'frozen'], 'real'),
  });
}

/** Builds the emulator's state from options (seed validated here). */
export function createContext(options: EmulatorOptions = {}): EmulatorContext {
  const resolved = resolveOptions(options);
  const seed = validateSeed(options.seed ?? DEFAULT_SEED);
  const clients = new Map(seed.clients.map((c) => [c.client_id, c]));
  const members = new Map(seed.members.map((m) => [m.member_no, m]));
  const byGuid = new Map<string, ValidMember>();
  for (const m of seed.members) for (const [g, guid] of Object.entries(m.guids)) byGuid.set(`${g}\u0000${guid}`, m);
  const games = new Set(seed.clients.map((c) => c.service_id));
  return {
    options: resolved,
    seed,
    clock: new EmulatorClock(resolved.clock),
    apiTokens: new ApiTokenStore(),
    users: new UserTokenStore(),
    faults: new FaultQueue(),
    log: new RequestLog(resolved.maxLogEntries),
    defaultGameId: seed.clients[0]?.service_id ?? '',
    client: (id) => clients.get(id),
    member: (no) => members.get(no),
    memberByGuid: (g, guid) => byGuid.get(`${g}\u0000${guid}`),
    isGame: (g) => games.has(g),
  };
}
