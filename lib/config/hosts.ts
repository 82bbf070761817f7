import { LIVE_BASE_URL, SANDBOX_BASE_URL } from './defaults.js';
import type { PlatformEnvironment } from './platform-config.js';

/**
 * The platform's two environments and their base URLs: the one host table
 * of the client, `fromEnv`, the CLI and the example app.
 */
export const PLATFORM_HOSTS: Readonly<Record<PlatformEnvironment, string>> = Object.freeze({
  live: LIVE_BASE_URL,
  sandbox: SANDBOX_BASE_URL,
});

/** True for `'live'` and `'sandbox'` (lower case: callers lower-case what they read). */
export function isPlatformEnvironment(value: string): value is PlatformEnvironment {
  return Object.hasOwn(PLATFORM_HOSTS, value);
}

/** The environment whose host `baseUrl` (normalized) is; `undefined` for any other URL (an emulator). */
export function environmentOfBaseUrl(baseUrl: string): PlatformEnvironment | undefined {
  return (Object.keys(PLATFORM_HOSTS) as PlatformEnvironment[]).find((name) => PLATFORM_HOSTS[name] === baseUrl);
}
