import type { PlatformConfig, PlatformEnvironment, ResolvedPlatformConfig } from './platform-config.js';
import type { PlatformEnvDescription, PlatformEnvReading, PlatformSettingName } from './platform-env-types.js';
import { PLATFORM_SETTING_NAMES } from './platform-env-types.js';
import { readPlatformEnv } from './read-platform-env.js';
import { resolvePlatformConfig } from './resolve-config.js';
import { configError } from './validate.js';

/** Environment variables, as `process.env` holds them. */
export type PlatformEnvSource = Readonly<Record<string, string | undefined>>;

/** The environment {@link fromEnv} reads (`process.env` by default); the same as {@link PlatformEnvSource}. */
export type Env = PlatformEnvSource;

/**
 * The client options of a reading. Throws a `TypeError` naming the variable
 * (or flag) of its first problem, never a value.
 */
export function platformOptionsFrom(reading: PlatformEnvReading): PlatformConfig & { environment?: PlatformEnvironment } {
  const [problem] = reading.problems;
  if (problem !== undefined) throw configError(problem.message);
  const v = reading.values;
  return {
    ...(v.baseUrl === undefined ? {} : { baseUrl: v.baseUrl }),
    ...(v.environment === undefined ? {} : { environment: v.environment }),
    clientId: v.clientId ?? '',
    clientSecret: v.clientSecret ?? '',
    gameId: v.gameId ?? '',
    ...(v.instanceId === undefined ? {} : { instanceId: v.instanceId }),
    ...(v.timeoutMs === undefined ? {} : { timeoutMs: v.timeoutMs }),
  };
}

function overriddenIn(overrides: Partial<PlatformConfig>): PlatformSettingName[] {
  return PLATFORM_SETTING_NAMES.filter((name) => overrides[name] !== undefined);
}

function readChecked(env: PlatformEnvSource, overrides: Partial<PlatformConfig>): { reading: PlatformEnvReading; options: PlatformConfig } {
  const reading = readPlatformEnv(env, { overridden: overriddenIn(overrides) });
  return { reading, options: platformOptionsFrom(reading) };
}

/**
 * Where each platform setting comes from, after the checks of
 * {@link fromEnv} (it throws what `fromEnv` throws). `values` holds what was
 * read (the client secret non-enumerable, so logging the result never shows
 * it); `sources` names, for every setting, its variable or `overrides`.
 */
function describe(env: PlatformEnvSource = process.env, overrides: Partial<PlatformConfig> = {}): PlatformEnvDescription {
  const { reading } = readChecked(env, overrides);
  return Object.freeze({ values: reading.values, sources: reading.sources });
}

/**
 * Builds the configuration from environment variables: `PLATFORM_BASE_URL`
 * or `PLATFORM_ENV` (`live`/`sandbox`), `PLATFORM_CLIENT_ID`,
 * `PLATFORM_CLIENT_SECRET`, `PLATFORM_GAME_ID`, optional
 * `PLATFORM_INSTANCE_ID` and `PLATFORM_TIMEOUT_MS`. Values are trimmed and a
 * blank one is unset. `overrides` (logger, clock, cache, ...) win over the
 * environment; an overridden `baseUrl` or `environment` replaces both
 * location variables. Throws a `TypeError` naming the missing or invalid
 * variable, never its value. `fromEnv.describe(env)` reports where each
 * setting came from. The result may be spread into new options
 * (`{ ...fromEnv(), cache }`): see {@link ResolvedPlatformConfig}.
 *
 * @example
 * ```ts
 * import { fromEnv, PlatformClient } from 'passport-game-platform';
 * const client = new PlatformClient(fromEnv(process.env, { cache: { ttlMs: 30_000 } }));
 * // The same, by spreading: the copy keeps the secret (never printed) and resolves again.
 * const same = new PlatformClient({ ...fromEnv(), cache: { ttlMs: 30_000 } });
 * const { sources } = fromEnv.describe(process.env);
 * console.log(`platform from ${sources.environment}, game from ${sources.gameId}`);
 * ```
 */
export function fromEnv(env: PlatformEnvSource = process.env, overrides: Partial<PlatformConfig> = {}): ResolvedPlatformConfig {
  return resolvePlatformConfig({ ...readChecked(env, overrides).options, ...overrides });
}

fromEnv.describe = describe;
