// Shared by the Nest and Fastify examples: the platform client from
// PLATFORM_* variables, or, with none set, an embedded emulator with demo
// members (development only).
import { PlatformClient, type Logger } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator, type Emulator } from 'passport-game-platform/emulator';

export interface DemoPlatform {
  client: PlatformClient;
  /** The embedded emulator, when PLATFORM_BASE_URL is unset. */
  emulator: Emulator | null;
  close(): Promise<void>;
}

const quiet: Logger = { debug: () => {}, info: () => {}, warn: (o, m) => console.warn(m, o), error: (o, m) => console.error(m, o) };

/** Emulator-mode settings, as PLATFORM_* variables (the Nest example reads them through ConfigService). */
export async function platformEnv(env: NodeJS.ProcessEnv): Promise<{ env: NodeJS.ProcessEnv; emulator: Emulator | null }> {
  if (env.PLATFORM_BASE_URL) return { env, emulator: null };
  const emulator = await startEmulator();
  return {
    emulator,
    env: { ...env, PLATFORM_BASE_URL: emulator.url, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game' },
  };
}

/** A client on PLATFORM_* variables or on an embedded emulator. */
export async function demoPlatform(env: NodeJS.ProcessEnv = process.env): Promise<DemoPlatform> {
  const { env: settings, emulator } = await platformEnv(env);
  const client = new PlatformClient({
    baseUrl: settings.PLATFORM_BASE_URL!, clientId: settings.PLATFORM_CLIENT_ID ?? '', clientSecret: settings.PLATFORM_CLIENT_SECRET ?? '',
    gameId: settings.PLATFORM_GAME_ID ?? '', logger: quiet,
  });
  return { client, emulator, close: async () => { void client.close(); await emulator?.close(); } };
}

/** The lines printed once the app listens: a demo token and the curl command to use it. */
export function demoBanner(name: string, appUrl: string, emulator: Emulator | null): string {
  const lines = [`${name} example on ${appUrl}`];
  if (emulator) {
    const { access_token } = emulator.login(DEFAULT_MEMBERS.player);
    lines.push(`Embedded emulator: ${emulator.url}`, `Try: curl -H 'Authorization: Bearer ${access_token}' ${appUrl}/api/me`);
  }
  lines.push(`Ready: ${appUrl}`);
  return lines.join('\n');
}
