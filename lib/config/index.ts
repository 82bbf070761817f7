export * from './defaults.js';
export type { CircuitBreakerOptions, PlatformConfig, PlatformEnvironment, ResolvedPlatformConfig, ResultCacheOptions } from './platform-config.js';
export { resolvePlatformConfig, configWith } from './resolve-config.js';
export { fromEnv, platformOptionsFrom } from './from-env.js';
export type { PlatformEnvSource } from './from-env.js';
export { readPlatformEnv, platformBaseUrl } from './read-platform-env.js';
export { PLATFORM_VARIABLES, PLATFORM_SETTING_NAMES } from './platform-env-types.js';
export type {
  GivenSetting, PlatformEnvDescription, PlatformEnvProblem, PlatformEnvProblemKind, PlatformEnvReading, PlatformEnvValues,
  PlatformSettingName, ReadPlatformEnvOptions,
} from './platform-env-types.js';
export { PLATFORM_HOSTS, environmentOfBaseUrl, isPlatformEnvironment } from './hosts.js';
export { CLIENT_SECRET, SecretBox } from './secret-box.js';
export { integerOption } from './validate.js';
