import { DEFAULT_TIMEOUT_MS, LIVE_BASE_URL, MAX_TIMEOUT_MS, SANDBOX_BASE_URL } from '../config/index.js';
import type { FlagSpec, ParsedArgs } from './args.js';
import { booleanFlag, stringFlag } from './args.js';
import type { CliIo } from './io.js';
import { readStdinLine } from './io.js';
import type { CheckLine } from './output.js';

/** Flags that say which platform to call and with which credentials. */
export const PLATFORM_FLAGS = {
  'base-url': { type: 'string' },
  env: { type: 'string' },
  'client-id': { type: 'string' },
  'client-secret-stdin': { type: 'boolean' },
  'game-id': { type: 'string' },
  'instance-id': { type: 'string' },
  'timeout-ms': { type: 'string' },
} as const satisfies FlagSpec;

/** Help lines of {@link PLATFORM_FLAGS}. */
export const PLATFORM_FLAGS_HELP = `Platform settings (flags override the environment variables in brackets):
  --base-url URL         platform base URL, e.g. an emulator            [PLATFORM_BASE_URL]
  --env live|sandbox     the platform's Live or Sandbox hosts           [PLATFORM_ENV]
  --client-id ID         server credentials' client_id                  [PLATFORM_CLIENT_ID]
  --client-secret-stdin  read client_secret from the first line of stdin [PLATFORM_CLIENT_SECRET]
                         (never a plain flag: it would land in shell history and ps)
  --game-id ID           the Game ID (E1 service_id, E2/E3 {game_id})   [PLATFORM_GAME_ID]
  --instance-id ID       optional E1 instance_id                        [PLATFORM_INSTANCE_ID]
  --timeout-ms MS        per-request timeout                            [PLATFORM_TIMEOUT_MS]`;

/** One setting and where it came from (`--flag`, `ENV_VAR`), for doctor's lines. */
export interface Setting {
  value: string | undefined;
  source: string;
}

/** The platform settings gathered from flags, stdin and environment. */
export interface PlatformSettings {
  baseUrl: Setting;
  environment: Setting;
  clientId: Setting;
  clientSecret: Setting;
  gameId: Setting;
  instanceId: Setting;
  timeoutMs: Setting;
}

function pick(values: ParsedArgs['values'], env: CliIo['env'], flag: string, variable: string): Setting {
  const fromFlag = stringFlag(values, flag);
  if (fromFlag !== undefined) return { value: fromFlag.trim() === '' ? undefined : fromFlag.trim(), source: `--${flag}` };
  const fromEnv = env[variable]?.trim();
  return { value: fromEnv === '' ? undefined : fromEnv, source: variable };
}

/**
 * Gathers the settings: a flag wins over its variable; `--base-url` or
 * `--env` on the command line replaces both location variables, so a flag
 * is never overridden by a stale variable. The client secret comes from
 * PLATFORM_CLIENT_SECRET or, with `--client-secret-stdin`, from stdin.
 */
export async function readPlatformSettings(values: ParsedArgs['values'], io: CliIo): Promise<PlatformSettings> {
  const env = io.env;
  const locationFlag = stringFlag(values, 'base-url') !== undefined || stringFlag(values, 'env') !== undefined;
  const locationEnv = locationFlag ? {} : env;
  const clientSecret: Setting = booleanFlag(values, 'client-secret-stdin')
    ? { value: await readStdinLine(io, 'the client secret'), source: '--client-secret-stdin' }
    : pick({}, env, 'client-secret', 'PLATFORM_CLIENT_SECRET');
  return {
    baseUrl: pick(values, locationEnv, 'base-url', 'PLATFORM_BASE_URL'),
    environment: pick(values, locationEnv, 'env', 'PLATFORM_ENV'),
    clientId: pick(values, env, 'client-id', 'PLATFORM_CLIENT_ID'),
    clientSecret,
    gameId: pick(values, env, 'game-id', 'PLATFORM_GAME_ID'),
    instanceId: pick(values, env, 'instance-id', 'PLATFORM_INSTANCE_ID'),
    timeoutMs: pick(values, env, 'timeout-ms', 'PLATFORM_TIMEOUT_MS'),
  };
}

// The library's own host table: the CLI never disagrees with the client on where Live and Sandbox are.
const HOSTS: Record<string, string> = { live: LIVE_BASE_URL, sandbox: SANDBOX_BASE_URL };

function parseUrl(raw: string): URL | undefined {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : undefined;
  } catch {
    return undefined;
  }
}

function baseUrlCheck(baseUrl: Setting & { value: string }, environment: Setting): CheckLine {
  const name = 'Platform';
  const url = parseUrl(baseUrl.value);
  if (!url) {
    return { name, ok: false, detail: `${baseUrl.source} is not an http(s) URL`, fix: `set ${baseUrl.source} to the platform's base URL, e.g. ${HOSTS.sandbox} (Sandbox) or http://127.0.0.1:4010 (an emulator).` };
  }
  if (url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '') {
    return { name, ok: false, detail: `${baseUrl.source} holds credentials, a query or a fragment`, fix: `set ${baseUrl.source} to the bare base URL (scheme, host, port, path); credentials go in PLATFORM_CLIENT_ID / PLATFORM_CLIENT_SECRET.` };
  }
  const shown = `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
  const env = environment.value?.toLowerCase();
  const other = Object.keys(HOSTS).find((key) => key !== env && HOSTS[key] === shown);
  if (env !== undefined && other !== undefined) {
    return { name, ok: false, detail: `${baseUrl.source} is the ${other} host but ${environment.source} says ${env}`, fix: `Live and Sandbox keys are never mixed: make ${baseUrl.source} and ${environment.source} agree, or unset one.` };
  }
  const label = env !== undefined ? `, ${env} credentials (${environment.source})` : '';
  return { name, ok: true, detail: `${shown} (from ${baseUrl.source}${label})` };
}

function locationCheck(s: PlatformSettings): CheckLine {
  const name = 'Platform';
  const { baseUrl, environment } = s;
  const env = environment.value?.toLowerCase();
  if (env !== undefined && HOSTS[env] === undefined) {
    return { name, ok: false, detail: `${environment.source} is "${environment.value}"`, fix: `set ${environment.source} to live or sandbox.` };
  }
  if (baseUrl.value !== undefined) return baseUrlCheck({ ...baseUrl, value: baseUrl.value }, environment);
  if (env !== undefined) return { name, ok: true, detail: `${env}: ${HOSTS[env]} (from ${environment.source})` };
  return { name, ok: false, detail: 'not set', fix: 'set PLATFORM_ENV=live or PLATFORM_ENV=sandbox, or PLATFORM_BASE_URL for an emulator (or pass --env / --base-url).' };
}

function requiredCheck(name: string, setting: Setting, what: string, shown: boolean): CheckLine {
  if (setting.value === undefined || setting.value.trim() === '') {
    const how = setting.source === 'PLATFORM_CLIENT_SECRET' ? 'set PLATFORM_CLIENT_SECRET, or pipe it in with --client-secret-stdin' : `set ${setting.source}`;
    return { name, ok: false, detail: 'not set', fix: `${how} to ${what}.` };
  }
  const value = shown ? setting.value : 'set (hidden)';
  return { name, ok: true, detail: `${value} (from ${setting.source})` };
}

function timeoutCheck(setting: Setting): CheckLine {
  const name = 'Timeout';
  if (setting.value === undefined) return { name, ok: true, detail: `default (${DEFAULT_TIMEOUT_MS} ms per attempt)` };
  const ms = Number(setting.value);
  // The client's own bounds: the CLI accepts no value the client would then reject.
  if (!/^[0-9]+$/.test(setting.value) || !Number.isSafeInteger(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) {
    return { name, ok: false, detail: `${setting.source} is "${setting.value}"`, fix: `set ${setting.source} to a whole number of milliseconds from 1 to ${MAX_TIMEOUT_MS}, or unset it for the default.` };
  }
  return { name, ok: true, detail: `${ms} ms per attempt (from ${setting.source})` };
}

/** Doctor's configuration lines, one per setting, each with its fix when wrong. */
export function checkPlatformSettings(s: PlatformSettings): CheckLine[] {
  return [
    locationCheck(s),
    requiredCheck('Client ID', s.clientId, "the client_id issued for this environment", true),
    requiredCheck('Client secret', s.clientSecret, "the client_secret issued with the client_id", false),
    requiredCheck('Game ID', s.gameId, 'the Game ID the credentials were issued for (E1 service_id)', true),
    s.instanceId.value === undefined
      ? { name: 'Instance ID', ok: true, detail: 'not set (every server of this client_id shares one API token)' }
      : { name: 'Instance ID', ok: true, detail: `${s.instanceId.value} (from ${s.instanceId.source})` },
    timeoutCheck(s.timeoutMs),
  ];
}
