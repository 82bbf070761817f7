import type express from 'express';
import request from 'supertest';
import { PlatformClient } from '../../lib/client/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { useEmulator } from './emulator-fixture.js';
import { buildApp, loadPassport, recordingLogger, type AppOptions, type GuardMode } from './http-apps.js';

/**
 * Real PlatformClients on an emulator, with budgets a busy machine cannot
 * outlast (10 s per attempt, 30 s in all, one retry; `defaults` override them
 * for every client of the kit, a test of a timeout sets its own short ones).
 * Close them with `closeAll()`.
 */
export function emulatorClients(emulator: () => Emulator, defaults: Partial<PlatformConfig> = {}) {
  const clients: PlatformClient[] = [];
  return {
    create(overrides: Partial<PlatformConfig> = {}): PlatformClient {
      const client = new PlatformClient({
        baseUrl: emulator().url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game',
        timeoutMs: 10_000, totalTimeoutMs: 30_000, retries: 1, retryBaseDelayMs: 5, retryMaxDelayMs: 20, logger: recordingLogger(),
        ...defaults,
        ...overrides,
      });
      clients.push(client);
      return client;
    },
    closeAll(): void {
      for (const client of clients.splice(0)) void client.close();
    },
  };
}

/** An emulator for the whole file and its clients, closed after it. */
export function useAdapterEmulator(): { fixture: ReturnType<typeof useEmulator>; clients: ReturnType<typeof emulatorClients> } {
  const fixture = useEmulator();
  const clients = emulatorClients(() => fixture.emulator);
  afterAll(() => clients.closeAll());
  return { fixture, clients };
}

/**
 * Express apps guarded by `mode` on a client of `clients` (the web token read
 * from the `SUAT` cookie too), and a GET of `/api/me` with a bearer token.
 */
export function emulatorApps(expressFn: typeof express, mode: GuardMode, clients: ReturnType<typeof emulatorClients>) {
  const app = async (auth: Partial<AppOptions<object>['auth']> = {}, overrides: Partial<PlatformConfig> = {}) =>
    buildApp(expressFn, { mode, passport: await loadPassport(), auth: { client: clients.create(overrides), tokenFrom: { cookie: 'SUAT' }, ...auth } });
  const get = async (a: Awaited<ReturnType<typeof app>>, token: string) => request(a).get('/api/me').set('Authorization', `Bearer ${token}`);
  return { app, get };
}
