import type express from 'express';
import request from 'supertest';
import { PlatformClient } from '../../lib/client/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { useEmulator } from './emulator-fixture.js';
import { buildApp, loadPassport, recordingLogger, type AppOptions, type GuardMode } from './http-apps.js';

/**
 * Real PlatformClients on an emulator, with budgets small enough for tests
 * (300 ms per attempt, 1.5 s in all, one retry; `defaults` override them for
 * every client of the kit). Close them with `closeAll()`.
 */
export function emulatorClients(emulator: () => Emulator, defaults: Partial<PlatformConfig> = {}) {
  const clients: PlatformClient[] = [];
  return {
    create(overrides: Partial<PlatformConfig> = {}): PlatformClient {
      const client = new PlatformClient({
        baseUrl: emulator().url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game',
        timeoutMs: 300, totalTimeoutMs: 1500, retries: 1, retryBaseDelayMs: 5, retryMaxDelayMs: 20, logger: recordingLogger(),
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

/**
 * An emulator for the whole file and its clients, closed after it; generous
 * per-attempt time on a loaded machine (the faults the adapter specs inject
 * answer at once).
 */
export function useAdapterEmulator(): { fixture: ReturnType<typeof useEmulator>; clients: ReturnType<typeof emulatorClients> } {
  const fixture = useEmulator();
  const clients = emulatorClients(() => fixture.emulator, { timeoutMs: 3000, totalTimeoutMs: 6000 });
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
