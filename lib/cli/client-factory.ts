import { platformOptionsFrom } from '../config/index.js';
import { PlatformClient, isPlatformError } from '../index.js';
import { ConfigurationError, messageOf } from './cli-errors.js';
import type { Output } from './output.js';
import { checkPlatformSettings } from './platform-checks.js';
import type { PlatformSettings } from './platform-settings.js';

/**
 * Builds the platform client from checked settings. Settings the CLI finds
 * wrong, and options the library rejects, become a {@link ConfigurationError}
 * naming the setting and its fix.
 */
export function createPlatformClient(settings: PlatformSettings, out: Output): PlatformClient {
  out.addSecret(settings.values.clientSecret);
  const failed = checkPlatformSettings(settings).filter((check) => !check.ok);
  if (failed.length > 0) {
    const lines = failed.map((check) => `${check.name}: ${check.detail}; fix: ${check.fix ?? ''}`);
    throw new ConfigurationError(`The configuration is incomplete or invalid. ${lines.join(' ')}`);
  }
  return buildClient(settings, out);
}

/** Like {@link createPlatformClient}, without re-checking (doctor checks line by line). */
export function buildClient(settings: PlatformSettings, out: Output): PlatformClient {
  out.addSecret(settings.values.clientSecret);
  let client: PlatformClient;
  try {
    // The options fromEnv would build from the same reading.
    client = new PlatformClient(platformOptionsFrom(settings));
  } catch (err) {
    throw new ConfigurationError(`The library rejected the settings: ${messageOf(err)}`);
  }
  if (out.options.debug) {
    client.on('call', (event) => out.debug(`call ${JSON.stringify(event)}`));
    client.provider.on('token', (event) => out.debug(`token ${JSON.stringify(event)}`));
  }
  return client;
}

/**
 * The operator's fix, in words, for a failure reaching the platform; the
 * error's own message says what happened.
 */
export function fixFor(err: unknown): string | undefined {
  if (!isPlatformError(err)) return undefined;
  switch (err.code) {
    case 40105:
      return 'use the client_id and client_secret issued for this environment: Live keys with PLATFORM_ENV=live, Sandbox keys with PLATFORM_ENV=sandbox (or the keys seeded in your emulator).';
    case 41002:
      return 'set PLATFORM_GAME_ID to the Game ID (service_id) the credentials were issued for, in the same environment.';
    case 40101:
    case 40103:
      return 'check PLATFORM_CLIENT_ID, PLATFORM_GAME_ID and the environment (Live or Sandbox); then run doctor again.';
    default:
      break;
  }
  if (err.kind === 'platform_unavailable') {
    return 'check the platform address (PLATFORM_BASE_URL / PLATFORM_ENV), DNS, proxies and firewalls from this host, and that the platform (or emulator) is up; raise PLATFORM_TIMEOUT_MS on a slow network; try again later.';
  }
  if (err.kind === 'configuration') return 'check the server credentials and the environment.';
  return undefined;
}
