import { LIVE_BASE_URL, SANDBOX_BASE_URL } from '../lib/index.js';
import { DEFAULT_REVERIFY_GRACE_MS, DEFAULT_REVERIFY_INTERVAL_MS } from '../lib/realtime/index.js';

/**
 * The example app's settings, read from environment variables (see example-app/README.md).
 * Pure: takes the environment as an argument, never reads `process.env`,
 * throws an `Error` whose message names the variable to fix.
 */

/** Where the app gets its platform from. */
export interface PlatformSettings {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  gameId: string;
  instanceId?: string;
}

export interface AppSettings {
  port: number;
  /** `null`: start the embedded emulator and seed demo members. */
  platform: PlatformSettings | null;
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
}

export const DEFAULT_PORT = 3000;
export const DEFAULT_WEB_COOKIE_NAME = 'SUAT';

/** Base URLs of the two environments. */
export const PLATFORM_HOSTS: Readonly<Record<'live' | 'sandbox', string>> = Object.freeze({
  live: LIVE_BASE_URL,
  sandbox: SANDBOX_BASE_URL,
});

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

function baseUrlFrom(env: Env): string | undefined {
  const baseUrl = read(env, 'PLATFORM_BASE_URL');
  if (baseUrl !== undefined) return parseUrl('PLATFORM_BASE_URL', baseUrl);
  const platformEnv = read(env, 'PLATFORM_ENV');
  if (platformEnv === undefined) return undefined;
  const key = platformEnv.toLowerCase();
  if (key !== 'live' && key !== 'sandbox') {
    throw new Error(`PLATFORM_ENV must be "live" or "sandbox", got "${platformEnv}".`);
  }
  return PLATFORM_HOSTS[key];
}

function platformFrom(env: Env): PlatformSettings | null {
  const baseUrl = baseUrlFrom(env);
  if (baseUrl === undefined) return null;
  const required = ['PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET', 'PLATFORM_GAME_ID'] as const;
  const missing = required.filter((name) => read(env, name) === undefined);
  if (missing.length > 0) {
    throw new Error(`A platform is configured (PLATFORM_BASE_URL or PLATFORM_ENV) but ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; set ${missing.length === 1 ? 'it' : 'them'}, or unset PLATFORM_BASE_URL and PLATFORM_ENV to use the embedded emulator.`);
  }
  const settings: PlatformSettings = {
    baseUrl,
    clientId: read(env, 'PLATFORM_CLIENT_ID') as string,
    clientSecret: env.PLATFORM_CLIENT_SECRET as string,
    gameId: read(env, 'PLATFORM_GAME_ID') as string,
  };
  const instanceId = read(env, 'PLATFORM_INSTANCE_ID');
  if (instanceId !== undefined) settings.instanceId = instanceId;
  return settings;
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
  return {
    port: parsePort(read(env, 'PORT')),
    platform: platformFrom(env),
    adminMemberNos: parseAdminMemberNos(env.ADMIN_MEMBER_NOS),
    webCookieName: cookieName,
    webLoginUrl: webLoginUrl === undefined ? null : parseUrl('WEB_LOGIN_URL', webLoginUrl),
    webLogoutUrl: webLogoutUrl === undefined ? null : parseUrl('WEB_LOGOUT_URL', webLogoutUrl),
    reverifyIntervalMs: parseMs('REVERIFY_INTERVAL_MS', read(env, 'REVERIFY_INTERVAL_MS'), DEFAULT_REVERIFY_INTERVAL_MS),
    reverifyGraceMs: parseMs('REVERIFY_GRACE_MS', read(env, 'REVERIFY_GRACE_MS'), DEFAULT_REVERIFY_GRACE_MS),
  };
}
