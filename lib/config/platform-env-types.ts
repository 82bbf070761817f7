import type { PlatformEnvironment } from './platform-config.js';

/** The platform settings read from the environment, by their option name. */
export type PlatformSettingName = 'baseUrl' | 'environment' | 'clientId' | 'clientSecret' | 'gameId' | 'instanceId' | 'timeoutMs';

/** The environment variable of each platform setting. */
export const PLATFORM_VARIABLES: Readonly<Record<PlatformSettingName, string>> = Object.freeze({
  baseUrl: 'PLATFORM_BASE_URL',
  environment: 'PLATFORM_ENV',
  clientId: 'PLATFORM_CLIENT_ID',
  clientSecret: 'PLATFORM_CLIENT_SECRET',
  gameId: 'PLATFORM_GAME_ID',
  instanceId: 'PLATFORM_INSTANCE_ID',
  timeoutMs: 'PLATFORM_TIMEOUT_MS',
});

/** Every platform setting, in the order problems are reported. */
export const PLATFORM_SETTING_NAMES = Object.freeze(Object.keys(PLATFORM_VARIABLES) as PlatformSettingName[]);

/**
 * The platform settings as read from the environment (checked, trimmed; an
 * unset or blank variable is absent). `clientSecret` is a non-enumerable
 * property: readable, but absent from `Object.keys`, spreads, JSON and
 * `util.inspect`.
 */
export interface PlatformEnvValues {
  /** `PLATFORM_BASE_URL`, normalized (no trailing slash). */
  readonly baseUrl?: string;
  /** `PLATFORM_ENV`, lower-cased. */
  readonly environment?: PlatformEnvironment;
  readonly clientId?: string;
  readonly clientSecret?: string;
  readonly gameId?: string;
  readonly instanceId?: string;
  /** `PLATFORM_TIMEOUT_MS`, within the client's own bounds. */
  readonly timeoutMs?: number;
}

/**
 * What `fromEnv.describe` reports: the values read and, for every setting,
 * where it came from: the variable's name (`PLATFORM_ENV`), or `overrides`
 * when the caller's `overrides` set it. A setting that is unset names the
 * variable to set.
 */
export interface PlatformEnvDescription {
  /** The values read; the client secret is non-enumerable, so printing this object never shows it. */
  readonly values: PlatformEnvValues;
  /** Where each setting came from. */
  readonly sources: Readonly<Record<PlatformSettingName, string>>;
}

/** A value a caller passes in place of a variable (a CLI flag), with the name to report for it (`--base-url`). */
export interface GivenSetting {
  readonly value: string | undefined;
  readonly source: string;
}

/** Options of `readPlatformEnv`. */
export interface ReadPlatformEnvOptions {
  /**
   * Values that win over their variable (a CLI's flags), read with the same
   * rules and reported with their own source. A given `baseUrl` or
   * `environment` replaces both location variables, so a stale variable
   * never overrides the caller's choice.
   */
  readonly given?: Readonly<Partial<Record<PlatformSettingName, GivenSetting>>>;
  /**
   * Settings the caller sets itself as typed options (`fromEnv`'s
   * `overrides`): neither read nor required here; reported as `overrides`.
   * An overridden location replaces both location variables, as a given one does.
   */
  readonly overridden?: readonly PlatformSettingName[];
}

/** What is wrong with one setting. */
export type PlatformEnvProblemKind =
  | 'required'
  | 'location_required'
  | 'not_live_or_sandbox'
  | 'not_http_url'
  | 'credentials'
  | 'query_or_fragment'
  | 'mixed_hosts'
  | 'not_integer'
  | 'out_of_range'
  | 'not_ascii';

/** One refused or missing setting. Never carries the client secret. */
export interface PlatformEnvProblem {
  readonly setting: PlatformSettingName;
  /** The variable or flag to fix (`PLATFORM_ENV`, `--timeout-ms`). */
  readonly source: string;
  readonly kind: PlatformEnvProblemKind;
  /** The rule, without the name: `must be "live" or "sandbox"`. */
  readonly rule: string;
  /** The library's message, naming the source and never a value: `"PLATFORM_ENV" must be "live" or "sandbox"`. */
  readonly message: string;
  /** The refused text, for a front end to quote; absent for a missing value, and whenever it could hold a secret. */
  readonly got?: string;
}

/** Everything read: the valid values, where each setting came from, and what is wrong. */
export interface PlatformEnvReading extends PlatformEnvDescription {
  /** Empty when the settings make a configuration; otherwise in a stable order (location first). */
  readonly problems: readonly PlatformEnvProblem[];
}
