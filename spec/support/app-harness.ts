import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp } from '../../example-app/create-app.js';
import type { AppConfig } from '../../example-app/create-app.js';
import { attachRealtime, type AttachedRealtime, type Realtime } from '../../example-app/realtime.js';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import { DEMO } from './demo.js';
import { recordingLogger } from './recording-logger.js';

export { DEMO };

export { recordingLogger };

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
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    gameId: DEMO.gameId,
    clock: emulator,
    ...options.client,
  });
  const app = createApp({
    client,
    adminMemberNos: [DEMO.admin],
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
    token: (memberNo) => emulator.login(memberNo, DEMO.gameId).access_token,
    close: async () => {
      void client.close();
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
      await new Promise<void>((resolve) => void realtime.io.close(() => resolve()));
      server.closeAllConnections();
    },
  };
}
