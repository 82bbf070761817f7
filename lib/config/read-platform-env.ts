import { MAX_TIMEOUT_MS } from './defaults.js';
import { PLATFORM_HOSTS, environmentOfBaseUrl, isPlatformEnvironment } from './hosts.js';
import type { PlatformEnvironment } from './platform-config.js';
import type {
  PlatformEnvProblem, PlatformEnvProblemKind, PlatformEnvReading, PlatformSettingName, ReadPlatformEnvOptions,
} from './platform-env-types.js';
import { PLATFORM_SETTING_NAMES, PLATFORM_VARIABLES } from './platform-env-types.js';
import { checkBaseUrl, isVisibleAscii } from './validate.js';

// The one reader of the PLATFORM_* variables: fromEnv, the CLI and the example app all read
// through it, so trimming, "blank is unset", the host table and the timeout bounds cannot drift.

type Env = Readonly<Record<string, string | undefined>>;
type Texts = Partial<Record<PlatformSettingName, string>>;
type Sources = Record<PlatformSettingName, string>;

const LOCATION: readonly PlatformSettingName[] = ['baseUrl', 'environment'];
const REQUIRED: readonly PlatformSettingName[] = ['clientId', 'clientSecret', 'gameId'];

function trimmed(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' ? undefined : text;
}

/** The text of each setting and its source: a given value wins over its variable. */
function gather(env: Env, options: ReadPlatformEnvOptions): { texts: Texts; sources: Sources } {
  const given = options.given ?? {};
  const overridden = new Set(options.overridden ?? []);
  const callerLocation = LOCATION.some((name) => given[name] !== undefined || overridden.has(name));
  const texts: Texts = {};
  const sources = {} as Sources;
  for (const name of PLATFORM_SETTING_NAMES) {
    const fromCaller = given[name];
    if (overridden.has(name)) {
      sources[name] = 'overrides';
    } else if (fromCaller !== undefined) {
      sources[name] = fromCaller.source;
      texts[name] = trimmed(fromCaller.value);
    } else {
      sources[name] = PLATFORM_VARIABLES[name];
      if (!(callerLocation && LOCATION.includes(name))) texts[name] = trimmed(env[PLATFORM_VARIABLES[name]]);
    }
    if (texts[name] === undefined) delete texts[name];
  }
  return { texts, sources };
}

class Check {
  readonly values: Record<string, unknown> = {};
  readonly problems: PlatformEnvProblem[] = [];

  readonly texts: Texts;
  readonly sources: Sources;
  readonly overridden: ReadonlySet<PlatformSettingName>;

  constructor(texts: Texts, sources: Sources, overridden: ReadonlySet<PlatformSettingName>) {
    this.texts = texts;
    this.sources = sources;
    this.overridden = overridden;
  }

  fail(setting: PlatformSettingName, kind: PlatformEnvProblemKind, rule: string): void {
    const source = this.sources[setting];
    const got = this.shown(setting, kind);
    this.problems.push({ setting, source, kind, rule, message: `"${source}" ${rule}`, ...(got === undefined ? {} : { got }) });
  }

  /** The refused text, unless it may hold a secret (the client secret itself, URL credentials). */
  private shown(setting: PlatformSettingName, kind: PlatformEnvProblemKind): string | undefined {
    const text = this.texts[setting];
    const secret = this.texts.clientSecret;
    if (text === undefined || setting === 'clientSecret' || kind === 'credentials' || text.includes('@')) return undefined;
    return secret !== undefined && text.includes(secret) ? undefined : text;
  }
}

function checkLocation(c: Check): void {
  const { baseUrl, environment } = c.texts;
  let env: PlatformEnvironment | undefined;
  if (environment !== undefined) {
    const lower = environment.toLowerCase();
    if (isPlatformEnvironment(lower)) env = lower;
    else c.fail('environment', 'not_live_or_sandbox', 'must be "live" or "sandbox"');
  }
  if (env !== undefined) c.values.environment = env;
  if (baseUrl !== undefined) {
    const checked = checkBaseUrl(baseUrl);
    if ('issue' in checked) {
      const rules = {
        not_http_url: 'must be an absolute http(s) URL',
        credentials: 'must not contain credentials',
        query_or_fragment: 'must not contain a query or a fragment',
      } as const;
      c.fail('baseUrl', checked.issue, rules[checked.issue]);
    } else {
      c.values.baseUrl = checked.url;
      const host = environmentOfBaseUrl(checked.url);
      if (env !== undefined && host !== undefined && host !== env) {
        c.fail('baseUrl', 'mixed_hosts', `is the ${host} host but "${c.sources.environment}" says ${env}`);
      }
    }
  }
  const located = baseUrl !== undefined || environment !== undefined || LOCATION.some((name) => c.overridden.has(name));
  if (!located) c.fail('baseUrl', 'location_required', `or "${c.sources.environment}" is required`);
}

function checkTimeout(c: Check): void {
  const text = c.texts.timeoutMs;
  if (text === undefined) return;
  if (!/^\d+$/.test(text)) {
    c.fail('timeoutMs', 'not_integer', 'must be an integer');
    return;
  }
  const ms = Number(text);
  // The client's own bounds: no reader accepts a value the client would then reject.
  if (ms < 1 || ms > MAX_TIMEOUT_MS) c.fail('timeoutMs', 'out_of_range', `must be an integer between 1 and ${MAX_TIMEOUT_MS}`);
  else c.values.timeoutMs = ms;
}

function checkStrings(c: Check): void {
  for (const name of REQUIRED) {
    if (c.texts[name] === undefined && !c.overridden.has(name)) c.fail(name, 'required', 'is required');
  }
  const { clientId, gameId, instanceId } = c.texts;
  if (clientId !== undefined) c.values.clientId = clientId;
  if (gameId !== undefined) {
    // The Game ID ends up in a header (caller-id) and in URL paths.
    if (isVisibleAscii(gameId)) c.values.gameId = gameId;
    else c.fail('gameId', 'not_ascii', 'must be printable ASCII without spaces');
  }
  if (instanceId !== undefined) c.values.instanceId = instanceId;
  if (c.texts.clientSecret !== undefined) {
    Object.defineProperty(c.values, 'clientSecret', { value: c.texts.clientSecret, enumerable: false });
  }
}

/**
 * Reads the platform settings (`PLATFORM_BASE_URL`, `PLATFORM_ENV`,
 * `PLATFORM_CLIENT_ID`, `PLATFORM_CLIENT_SECRET`, `PLATFORM_GAME_ID`,
 * `PLATFORM_INSTANCE_ID`, `PLATFORM_TIMEOUT_MS`) with one rule set: values
 * are trimmed and a blank one is unset; `PLATFORM_ENV` is `live` or
 * `sandbox` (any case), mapped through the library's host table; the base
 * URL follows the client's rules and must not name the other environment's
 * host; the timeout is within the client's bounds. Never throws: every
 * problem is listed, naming its variable (or the caller's flag).
 */
export function readPlatformEnv(env: Env, options: ReadPlatformEnvOptions = {}): PlatformEnvReading {
  const { texts, sources } = gather(env, options);
  const check = new Check(texts, sources, new Set(options.overridden ?? []));
  checkLocation(check);
  checkTimeout(check);
  checkStrings(check);
  return Object.freeze({
    values: Object.freeze(check.values),
    sources: Object.freeze(sources),
    problems: Object.freeze(check.problems),
  });
}

/** The base URL the settings point at: `baseUrl`, else the host of `environment`. */
export function platformBaseUrl(values: PlatformEnvReading['values']): string | undefined {
  return values.baseUrl ?? (values.environment === undefined ? undefined : PLATFORM_HOSTS[values.environment]);
}
