import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import WebSocket from 'ws';
import { createAuthenticator, PlatformClient } from '../../lib/index.js';
import { startEmulator, type Emulator } from '../../lib/emulator/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import { attachWebSocket } from '../../lib/ws/index.js';

// The real-time guide states what a `ws` upgrade without credentials gets by
// default, and how to turn that off. This checks the code does what the guide
// says, whichever default the guide states.
const GUIDE = readFileSync(path.resolve(import.meta.dirname, '../../docs/realtime.md'), 'utf8');
const DOCUMENTED_DEFAULT_ACCEPTS = GUIDE.includes('By default (`firstMessage: true`) an upgrade **without any credentials** is accepted');

type Outcome = { opened: true } | { opened: false; status: number; action: unknown };

function upgradeWithoutCredentials(url: string): Promise<Outcome> {
  const ws = new WebSocket(url);
  return new Promise((resolve, reject) => {
    ws.once('open', () => { ws.terminate(); resolve({ opened: true }); });
    ws.once('error', () => undefined);
    ws.once('unexpected-response', (_req, res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => {
        try {
          resolve({ opened: false, status: res.statusCode ?? 0, action: (JSON.parse(text) as { action?: unknown }).action });
        } catch (err) {
          reject(err);
        }
      });
    });
  });
}

describe('a ws upgrade without credentials', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  beforeAll(async () => {
    emulator = await startEmulator();
    client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
  });
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  async function serve(firstMessage: boolean | undefined): Promise<{ url: string; stop: () => Promise<void> }> {
    const authenticate = createAuthenticator(client);
    const registry = new SessionRegistry({ authenticate });
    const server: Server = createServer();
    const attached = attachWebSocket(server, { authenticate, registry, ...(firstMessage === undefined ? {} : { firstMessage }) });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `ws://127.0.0.1:${port}/ws`,
      stop: async () => {
        registry.closeAll('shutdown');
        attached.close();
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  }

  it('gets what the guide says by default', async () => {
    const { url, stop } = await serve(undefined);
    try {
      const outcome = await upgradeWithoutCredentials(url);
      expect(outcome).toEqual(DOCUMENTED_DEFAULT_ACCEPTS ? { opened: true } : { opened: false, status: 401, action: 'login' });
    } finally {
      await stop();
    }
  });

  it('is refused 401 login before the connection exists with firstMessage: false', async () => {
    const { url, stop } = await serve(false);
    try {
      expect(await upgradeWithoutCredentials(url)).toEqual({ opened: false, status: 401, action: 'login' });
    } finally {
      await stop();
    }
  });
});
