import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../example-app/create-app.js';
import type { AppConfig } from '../../example-app/create-app.js';
import { attachRealtime, type AttachedRealtime, type Realtime } from '../../example-app/realtime.js';
import { DEFAULT_MEMBERS, startEmulator } from '../../lib/emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import type { Logger, PlatformConfig } from '../../lib/index.js';

/** Credentials of the emulator's DEFAULT_SEED (development values only). */
export const APP_DEMO = {
  gameId: 'demo-game',
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  admin: DEFAULT_MEMBERS.admin,
  adminGuid: '200000000397',
  player: DEFAULT_MEMBERS.player,
  playerGuid: '200000000401',
  noGuid: DEFAULT_MEMBERS.noGuid,
  unregistered: DEFAULT_MEMBERS.unregisteredDevice,
  big: DEFAULT_MEMBERS.bigIds,
  bigGuid: '9007199254740995',
} as const;

/** A logger that keeps every line, for assertions (and keeps test output quiet). */
export function recordingLogger(): Logger & { lines: Array<{ level: string; msg: string; obj: object }> } {
  const lines: Array<{ level: string; msg: string; obj: object }> = [];
  const at = (level: string) => (obj: object, msg?: string): void => void lines.push({ level, msg: msg ?? '', obj });
  return { lines, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Options of {@link startAppHarness}. */
export interface AppHarnessOptions {
  emulator?: EmulatorOptions;
  /** Client options over the demo credentials (e.g. short timeouts, a wrong secret). */
  client?: Partial<PlatformConfig>;
  app?: Partial<AppConfig>;
}

/** Emulator + platform client + the example app (not listening). */
export interface AppHarness {
  emulator: Emulator;
  client: PlatformClient;
  app: Express;
  logger: ReturnType<typeof recordingLogger>;
  /** A fresh user token of `memberNo` (emulator test-control). */
  token(memberNo: string): string;
  close(): Promise<void>;
}

export async function startAppHarness(options: AppHarnessOptions = {}): Promise<AppHarness> {
  const emulator = await startEmulator({ host: '127.0.0.1', ...options.emulator });
  const logger = recordingLogger();
  const client = new PlatformClient({
    baseUrl: emulator.url,
    clientId: APP_DEMO.clientId,
    clientSecret: APP_DEMO.clientSecret,
    gameId: APP_DEMO.gameId,
    clock: emulator,
    ...options.client,
  });
  const app = createApp({
    client,
    adminMemberNos: [APP_DEMO.admin],
    webLoginUrl: `${emulator.url}/_emulator/web/login`,
    webLogoutUrl: `${emulator.url}/_emulator/web/logout`,
    logger,
    ...options.app,
  });
  return {
    emulator,
    client,
    app,
    logger,
    token: (memberNo) => emulator.login(memberNo, APP_DEMO.gameId).access_token,
    close: async () => {
      client.close();
      await emulator.close();
    },
  };
}

/** Listens on a free port of 127.0.0.1; resolves with the server's URL. */
async function listenOn127(server: Server): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Listens on 127.0.0.1 (the emulator's host name, so its web cookie reaches the app). */
export async function listenOnLoopback(app: Express): Promise<{ url: string; close(): Promise<void> }> {
  const server = createServer(app);
  return {
    url: await listenOn127(server),
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

/** {@link listenOnLoopback} plus Socket.IO and `/ws` on the same port (as `npm start` serves them). */
export async function listenWithRealtime(app: Express): Promise<{ url: string; realtime: AttachedRealtime; close(): Promise<void> }> {
  const server = createServer(app);
  const realtime = attachRealtime(server, app.locals.realtime as Realtime);
  return {
    url: await listenOn127(server),
    realtime,
    close: async () => {
      realtime.closeAll('shutdown');
      await new Promise<void>((resolve) => realtime.io.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
