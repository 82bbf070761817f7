import { DEFAULT_MEMBERS, DEFAULT_SEED, startEmulator } from '../lib/emulator/index.js';
import type { Emulator } from '../lib/emulator/index.js';
import type { PlatformSettings } from './load-config.js';

/** The embedded emulator and the credentials the app uses against it. */
export interface DemoPlatform {
  emulator: Emulator;
  platform: PlatformSettings;
}

const HOST = '127.0.0.1';

function isAddressInUse(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | null)?.code === 'EADDRINUSE';
}

/**
 * Starts the emulator with {@link DEFAULT_SEED} on 127.0.0.1 (the app's host
 * name, so the browser sends the emulator's web token cookie to the app:
 * cookies ignore ports), on `appPort + 1` when that is free, else any port.
 */
export async function startDemoPlatform(appPort: number, webCookieName: string): Promise<DemoPlatform> {
  const options = { host: HOST, seed: DEFAULT_SEED, webCookieName };
  let emulator: Emulator;
  const preferred = appPort > 0 && appPort < 65535 ? appPort + 1 : 0;
  try {
    emulator = await startEmulator({ ...options, port: preferred });
  } catch (err) {
    if (preferred === 0 || !isAddressInUse(err)) throw err;
    emulator = await startEmulator({ ...options, port: 0 });
  }
  const client = DEFAULT_SEED.clients.find((c) => c.environment === undefined || c.environment === emulator.environment);
  if (client === undefined) throw new Error('The emulator seed has no client for its environment.');
  return {
    emulator,
    platform: { baseUrl: emulator.url, clientId: client.client_id, clientSecret: client.client_secret, gameId: client.service_id },
  };
}

/** The demo members and the guid each has in `gameId` (null: terms not accepted). */
export function demoMembers(gameId: string): Record<keyof typeof DEFAULT_MEMBERS, { memberNo: string; guid: string | null }> {
  const guidOf = (memberNo: string): string | null =>
    DEFAULT_SEED.members.find((m) => m.member_no === memberNo)?.guids?.[gameId] ?? null;
  const entries = Object.entries(DEFAULT_MEMBERS).map(([role, memberNo]) => [role, { memberNo, guid: guidOf(memberNo) }]);
  return Object.fromEntries(entries) as Record<keyof typeof DEFAULT_MEMBERS, { memberNo: string; guid: string | null }>;
}
