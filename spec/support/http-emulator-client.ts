import { PlatformClient } from '../../lib/client/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { recordingLogger } from './http-apps.js';

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
