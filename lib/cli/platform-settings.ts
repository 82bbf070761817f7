import { readPlatformEnv } from '../config/index.js';
import type { GivenSetting, PlatformEnvReading, PlatformSettingName } from '../config/index.js';
import type { FlagSpec, ParsedArgs } from './args.js';
import { booleanFlag, stringFlag } from './args.js';
import type { CliIo } from './io.js';
import { readStdinLine } from './io.js';

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

/**
 * The platform settings gathered from flags, stdin and environment, as the
 * library reads them: values, where each came from (`--flag` or the
 * variable) and what is wrong, each problem naming the flag or variable.
 */
export type PlatformSettings = PlatformEnvReading;

// The flag of each setting read from the command line (the secret never is: see --client-secret-stdin).
const FLAG_OF: Readonly<Partial<Record<PlatformSettingName, string>>> = {
  baseUrl: 'base-url',
  environment: 'env',
  clientId: 'client-id',
  gameId: 'game-id',
  instanceId: 'instance-id',
  timeoutMs: 'timeout-ms',
};

/**
 * Gathers the settings through the library's own reader (the rules of
 * `fromEnv`): a flag wins over its variable; `--base-url` or `--env` on the
 * command line replaces both location variables, so a flag is never
 * overridden by a stale variable. The client secret comes from
 * PLATFORM_CLIENT_SECRET or, with `--client-secret-stdin`, from stdin.
 */
export async function readPlatformSettings(values: ParsedArgs['values'], io: CliIo): Promise<PlatformSettings> {
  const given: Partial<Record<PlatformSettingName, GivenSetting>> = {};
  for (const [name, flag] of Object.entries(FLAG_OF) as [PlatformSettingName, string][]) {
    const value = stringFlag(values, flag);
    if (value !== undefined) given[name] = { value, source: `--${flag}` };
  }
  if (booleanFlag(values, 'client-secret-stdin')) {
    given.clientSecret = { value: await readStdinLine(io, 'the client secret'), source: '--client-secret-stdin' };
  }
  return readPlatformEnv(io.env, { given });
}
