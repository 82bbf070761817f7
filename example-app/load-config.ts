import { PLATFORM_SETTING_NAMES, platformBaseUrl, platformOptionsFrom, readPlatformEnv } from '../lib/config/index.js';
import type { PlatformEnvProblem, PlatformEnvReading, PlatformSettingName } from '../lib/config/index.js';
import { DEFAULT_REVERIFY_GRACE_MS, DEFAULT_REVERIFY_INTERVAL_MS } from '../lib/realtime/index.js';
import { MAX_OUTAGE_GRACE_MS } from '../lib/client/index.js';

/**
 * The example app's settings, read from environment variables (see example-app/README.md).
 * Pure: takes the environment as an argument, never reads `process.env`,
 * throws an `Error` whose message names the variable to fix. The PLATFORM_*
 * variables go through the library's own reader (the rules of `fromEnv`);
 * the app reads only its own variables here.
 */

/** Where the app gets its platform from. */
export interface PlatformSettings {
  baseUrl: string;
  /** `PLATFORM_ENV`, when set: labels the credentials (a custom base URL stays the one called). */
  environment?: 'live' | 'sandbox';
  clientId: string;
  clientSecret: string;
  gameId: string;
  instanceId?: string;
  /** `PLATFORM_TIMEOUT_MS`; the client's default when unset. */
  timeoutMs?: number;
}

/**
 * Where each platform value in use came from (a variable name), for the
 * startup banner; settings left unset are absent. `baseUrl` names
 * PLATFORM_ENV when the host came from the library's host table.
 */
export type PlatformSources = Readonly<Partial<Record<PlatformSettingName, string>>>;

export interface AppSettings {
  port: number;
  /** `null`: start the embedded emulator and seed demo members. */
  platform: PlatformSettings | null;
  /** Set with `platform`: where each of its values came from. */
  platformSources?: PlatformSources;
  /** `null` when `ADMIN_MEMBER_NOS` is unset (the emulator mode then uses its demo admin). */
  adminMemberNos: string[] | null;
  webCookieName: string;
  /** The platform's web login / logout pages, when known (`WEB_LOGIN_URL`, `WEB_LOGOUT_URL`). */
  webLoginUrl: string | null;
  webLogoutUrl: string | null;
  /** `REVERIFY_INTERVAL_MS`: live connections' tokens are verified again this often (0: never). */
  reverifyIntervalMs: number;
  /** `REVERIFY_GRACE_MS`: a platform outage ends connections only after this long without a success. */
  reverifyGraceMs: number;
  /**
   * `PLATFORM_OUTAGE_GRACE_MS`: during a platform outage, tokens verified successfully within
   * this long are still accepted (served in grace). 0 (default): off.
   */
  outageGraceMs: number;
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_WEB_COOKIE_NAME = 'SUAT';

type Env = Readonly<Record<string, string | undefined>>;

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function parsePort(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PORT;
  if (!/^\d{1,5}$/.test(raw) || Number(raw) > 65535) {
    throw new Error(`PORT must be a whole number from 0 to 65535, got "${raw}".`);
  }
  return Number(raw);
}

/** Parses `ADMIN_MEMBER_NOS`: comma-separated member numbers (digits only). */
export function parseAdminMemberNos(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const entries = raw.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  for (const entry of entries) {
    if (!/^\d{1,30}$/.test(entry)) {
      throw new Error(`ADMIN_MEMBER_NOS must be comma-separated member numbers (digits only), e.g. "20005061986,20005061987"; "${entry}" is not one.`);
    }
  }
  return [...new Set(entries)];
}

/** Parses a duration variable in ms (a whole number up to 2147483647, the longest timer). */
export function parseMs(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) > 2_147_483_647) {
    throw new Error(`${name} must be a whole number of milliseconds from 0 to 2147483647, got "${raw}".`);
  }
  return Number(raw);
}

/** Parses `PLATFORM_OUTAGE_GRACE_MS`: a whole number of ms from 0 (off, the default) to one hour. */
export function parseOutageGraceMs(raw: string | undefined): number {
  if (raw === undefined) return 0;
  if (!/^\d{1,7}$/.test(raw) || Number(raw) > MAX_OUTAGE_GRACE_MS) {
    throw new Error(`PLATFORM_OUTAGE_GRACE_MS must be a whole number of milliseconds from 0 (off) to ${MAX_OUTAGE_GRACE_MS}, got "${raw}".`);
  }
  return Number(raw);
}

function parseUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an absolute http(s) URL, got "${raw}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${name} must be an absolute http(s) URL, got "${raw}".`);
  }
  return raw.replace(/\/+$/, '');
}

// The library's verdict, in the app's words: the variable, the rule, and the refused text when it is safe to show.
function problemText(problem: PlatformEnvProblem): string {
  if (problem.kind === 'mixed_hosts') {
    return `${problem.source} ${problem.rule.replaceAll('"', '')}: Live and Sandbox keys are never mixed; make them agree, or unset one.`;
  }
  return `${problem.source} ${problem.rule}${problem.got === undefined ? '' : `, got "${problem.got}"`}.`;
}

function sourcesOf({ values, sources }: PlatformEnvReading): PlatformSources {
  const used: Partial<Record<PlatformSettingName, string>> = {};
  for (const name of PLATFORM_SETTING_NAMES) if (values[name] !== undefined) used[name] = sources[name];
  used.baseUrl = values.baseUrl === undefined ? sources.environment : sources.baseUrl;
  return Object.freeze(used);
}

function platformFrom(env: Env): { platform: PlatformSettings; platformSources: PlatformSources } | null {
  const reading = readPlatformEnv(env);
  const invalid = reading.problems.find((problem) => problem.kind !== 'required' && problem.kind !== 'location_required');
  if (invalid !== undefined) throw new Error(problemText(invalid));
  if (reading.problems.some((problem) => problem.kind === 'location_required')) return null;
  // Only missing credentials are left: the app's own sentence lists them all.
  const missing = reading.problems.map((problem) => problem.source);
  if (missing.length > 0) {
    throw new Error(`A platform is configured (PLATFORM_BASE_URL or PLATFORM_ENV) but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; set ${missing.length === 1 ? 'it' : 'them'}, or unset PLATFORM_BASE_URL and PLATFORM_ENV to use the embedded emulator.`);
  }
  const { environment, instanceId, timeoutMs, clientId, clientSecret, gameId } = platformOptionsFrom(reading);
  const platform: PlatformSettings = {
    baseUrl: platformBaseUrl(reading.values) as string,
    ...(environment === undefined ? {} : { environment }),
    clientId,
    clientSecret,
    gameId,
    ...(instanceId === undefined ? {} : { instanceId }),
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  };
  return { platform, platformSources: sourcesOf(reading) };
}

/**
 * Reads the app's settings from an environment.
 *
 * @example
 * ```ts
 * const settings = loadConfig(process.env);
 * ```
 */
export function loadConfig(env: Env): AppSettings {
  const webLoginUrl = read(env, 'WEB_LOGIN_URL');
  const webLogoutUrl = read(env, 'WEB_LOGOUT_URL');
  const cookieName = read(env, 'WEB_COOKIE_NAME') ?? DEFAULT_WEB_COOKIE_NAME;
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(cookieName)) {
    throw new Error(`WEB_COOKIE_NAME must be a cookie name (letters, digits, and !#$%&'*+-.^_\`|~), got "${cookieName}".`);
  }
  const port = parsePort(read(env, 'PORT'));
  const platform = platformFrom(env);
  return {
    port,
    platform: platform?.platform ?? null,
    ...(platform === null ? {} : { platformSources: platform.platformSources }),
    adminMemberNos: parseAdminMemberNos(env.ADMIN_MEMBER_NOS),
    webCookieName: cookieName,
    webLoginUrl: webLoginUrl === undefined ? null : parseUrl('WEB_LOGIN_URL', webLoginUrl),
    webLogoutUrl: webLogoutUrl === undefined ? null : parseUrl('WEB_LOGOUT_URL', webLogoutUrl),
    reverifyIntervalMs: parseMs('REVERIFY_INTERVAL_MS', read(env, 'REVERIFY_INTERVAL_MS'), DEFAULT_REVERIFY_INTERVAL_MS),
    reverifyGraceMs: parseMs('REVERIFY_GRACE_MS', read(env, 'REVERIFY_GRACE_MS'), DEFAULT_REVERIFY_GRACE_MS),
    outageGraceMs: parseOutageGraceMs(read(env, 'PLATFORM_OUTAGE_GRACE_MS')),
  };
}
