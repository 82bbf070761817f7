import { PlatformClient, fromEnv } from '../../lib/index.js';
import type { ResolvedPlatformConfig } from '../../lib/index.js';
import { buildClient } from '../../lib/cli/client-factory.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import type { CliIo } from '../../lib/cli/io.js';
import { Output } from '../../lib/cli/output.js';
import { readPlatformSettings } from '../../lib/cli/platform-settings.js';
import { loadConfig } from '../../example-app/load-config.js';
import { platformBanner } from '../../example-app/platform-banner.js';
import { jsonOf, runInProcess } from '../cli/cli-harness.js';

// The library, the admin CLI and the example app read PLATFORM_* through one reader:
// fed the same environment, they build the same configuration and refuse the same mistakes.

const SECRET = 'one-reader-secret-0c3e55';
type Env = Record<string, string | undefined>;
const base: Env = {
  PLATFORM_ENV: ' Sandbox ',
  PLATFORM_CLIENT_ID: ' client ',
  PLATFORM_CLIENT_SECRET: SECRET,
  PLATFORM_GAME_ID: 'MYGAME',
  PLATFORM_INSTANCE_ID: 'server-7',
  PLATFORM_TIMEOUT_MS: '2500',
};

const silent = { write: () => true };
const ioOf = (env: Env): CliIo => ({ stdout: silent, stderr: silent, env });

function facts(config: ResolvedPlatformConfig): unknown[] {
  return [config.baseUrl, config.environment, config.clientId, config.clientSecret, config.gameId, config.instanceId, config.timeoutMs];
}

async function threeConfigs(env: Env): Promise<unknown[][]> {
  const library = fromEnv(env);
  const cli = buildClient(await readPlatformSettings({}, ioOf(env)), new Output(ioOf(env), { json: false, debug: false }));
  const app = loadConfig(env).platform;
  expect(app).not.toBeNull();
  const appClient = new PlatformClient(app!);
  try {
    return [facts(library), facts(cli.config), facts(appClient.config)];
  } finally {
    await cli.close();
    await appClient.close();
  }
}

/** What each reader says about `env`: fromEnv's TypeError, doctor's failed lines, loadConfig's Error. */
async function threeRefusals(env: Env): Promise<{ library: string; cli: string; app: string }> {
  let library = '';
  try {
    fromEnv(env);
  } catch (err) {
    library = (err as Error).message;
  }
  const doctor = await runInProcess(['doctor', '--json'], { env });
  expect(doctor.status).toBe(ExitCode.CONFIGURATION);
  const checks = jsonOf(doctor).checks as { ok: boolean; detail: string; fix?: string }[];
  const cli = checks.filter((check) => !check.ok).map((check) => `${check.detail}; ${check.fix ?? ''}`).join('\n');
  let app = '';
  try {
    loadConfig(env);
  } catch (err) {
    app = (err as Error).message;
  }
  return { library, cli, app };
}

describe('one reader for the library, the CLI and the example app', () => {
  it('builds the same configuration from the same environment (trimmed, host from the library\'s table)', async () => {
    const [library, cli, app] = await threeConfigs(base);
    expect(library).toEqual(['https://api.gate8.com', 'sandbox', 'client', SECRET, 'MYGAME', 'server-7', 2500]);
    expect(cli).toEqual(library);
    expect(app).toEqual(library);
  });

  it('agrees on an emulator base URL labelled with its environment', async () => {
    const env = { ...base, PLATFORM_BASE_URL: 'http://127.0.0.1:4010/', PLATFORM_TIMEOUT_MS: undefined };
    const [library, cli, app] = await threeConfigs(env);
    expect(library).toEqual(['http://127.0.0.1:4010', 'sandbox', 'client', SECRET, 'MYGAME', 'server-7', 5000]);
    expect([cli, app]).toEqual([library, library]);
  });

  it.each<[string, Env, string]>([
    ['a PLATFORM_TIMEOUT_MS the client would reject', { PLATFORM_TIMEOUT_MS: '600000' }, 'PLATFORM_TIMEOUT_MS'],
    ['a PLATFORM_TIMEOUT_MS that is not a number', { PLATFORM_TIMEOUT_MS: 'soon' }, 'PLATFORM_TIMEOUT_MS'],
    ['a PLATFORM_ENV that is neither live nor sandbox', { PLATFORM_ENV: 'prod' }, 'PLATFORM_ENV'],
    ['the Live host with Sandbox credentials', { PLATFORM_BASE_URL: 'https://api.onstove.com' }, 'PLATFORM_BASE_URL'],
    ['a Game ID with a space', { PLATFORM_GAME_ID: 'MY GAME' }, 'PLATFORM_GAME_ID'],
  ])('all three refuse %s, naming the variable', async (_name, vars, variable) => {
    const { library, cli, app } = await threeRefusals({ ...base, ...vars });
    expect(library).toContain(`"${variable}"`);
    expect(cli).toContain(variable);
    expect(app).toContain(variable);
    for (const text of [library, cli, app]) expect(text).not.toContain(SECRET);
  });

  it('reports where each value came from, flags included, and never the secret', async () => {
    const doctor = await runInProcess(['doctor', '--json', '--env', 'prod', '--timeout-ms', '120001'], { env: base });
    const checks = jsonOf(doctor).checks as { name: string; ok: boolean; detail: string }[];
    expect(checks).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'Platform', ok: false, detail: '--env is "prod"' }),
      expect.objectContaining({ name: 'Client ID', ok: true, detail: 'client (from PLATFORM_CLIENT_ID)' }),
      expect.objectContaining({ name: 'Client secret', ok: true, detail: 'set (hidden) (from PLATFORM_CLIENT_SECRET)' }),
      expect.objectContaining({ name: 'Timeout', ok: false, detail: '--timeout-ms is "120001"' }),
    ]));
    const settings = loadConfig(base);
    const banner = platformBanner(settings.platform!, settings.platformSources!);
    expect(banner).toBe('Platform: https://api.gate8.com (from PLATFORM_ENV), game MYGAME (from PLATFORM_GAME_ID), '
      + 'client_id client (from PLATFORM_CLIENT_ID), client_secret set (from PLATFORM_CLIENT_SECRET), '
      + 'instance_id server-7 (from PLATFORM_INSTANCE_ID), timeout 2500 ms (from PLATFORM_TIMEOUT_MS)');
    expect(fromEnv.describe(base).sources.environment).toBe('PLATFORM_ENV');
    expect([doctor.stdout, doctor.stderr, banner, JSON.stringify(settings.platformSources), JSON.stringify(fromEnv.describe(base))].join('\n')).not.toContain(SECRET);
  });

  it('keeps the example app on the embedded emulator when no platform is set, and names missing credentials otherwise', () => {
    expect(loadConfig({ PLATFORM_CLIENT_ID: 'id' }).platform).toBeNull();
    expect(() => loadConfig({ PLATFORM_ENV: 'sandbox', PLATFORM_CLIENT_SECRET: SECRET })).toThrow(
      'A platform is configured (PLATFORM_BASE_URL or PLATFORM_ENV) but PLATFORM_CLIENT_ID, PLATFORM_GAME_ID are not set',
    );
    expect(() => fromEnv({ PLATFORM_ENV: 'sandbox', PLATFORM_CLIENT_SECRET: SECRET })).toThrow('"PLATFORM_CLIENT_ID" is required');
  });
});
