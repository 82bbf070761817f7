import { connect } from 'node:net';
import type { VerifyCallOptions } from '../../lib/auth/types.js';
import type { PlatformClient } from '../../lib/client/index.js';
import { CALLER_GONE } from '../../lib/platform-call/aborted.js';
import { PlatformClient as Client } from '../../lib/client/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { ADAPTERS } from '../support/adapter-servers.js';
import { DEMO, configFor, startTestEmulator } from '../support/client-harness.js';
import { until } from '../support/until.js';

// Every adapter hands the core a signal that aborts the platform call when the
// player hangs up first, so a flood of abandoned requests costs no platform work.
describe.each(ADAPTERS)('%s', (_adapter, start) => {
  it('aborts the platform call in flight when the client hangs up', async () => {
    let hangUp = (): void => {};
    let signal: AbortSignal | undefined;
    const aborted = new Promise<void>((resolve) => {
      const verifyUserToken = (_token: string, options?: VerifyCallOptions) => new Promise<never>(() => {
        signal = options?.signal;
        signal?.addEventListener('abort', () => resolve());
        hangUp(); // the player gives up while the platform is still thinking
      });
      void start({ verifyUserToken } as unknown as PlatformClient).then((server) => {
        const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer okHang\r\n\r\n'));
        hangUp = () => socket.destroy();
        void aborted.then(() => server.close());
      });
    });
    await aborted;
    expect(signal).toBeInstanceOf(AbortSignal); // a custom verifier gets a real one
    expect(signal?.aborted).toBe(true);
    expect(signal?.reason).toBe(CALLER_GONE); // no DOMException (and its stack) built per hang-up
  });
});

// The package's own client takes the adapters' light signal as it is: a player who hangs up while
// queued behind a slow call leaves the queue, and the platform is never asked for them.
describe.each(ADAPTERS)('%s with the package client', (_adapter, start) => {
  let emulator: Emulator;
  afterEach(() => emulator.close());

  it('drops a queued verification whose client hangs up: no platform call for it', async () => {
    emulator = await startTestEmulator();
    const client = new Client(configFor(emulator, { maxConcurrentCalls: 1, timeoutMs: 5000, totalTimeoutMs: 10_000 }));
    await client.ready();
    const server = await start(client);
    try {
      emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 400, count: 1 });
      const player = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      const answered = fetch(`http://127.0.0.1:${server.port}/api/me`, { headers: { authorization: `Bearer ${player}` } });
      await until(() => client.load.active === 1, 15_000, 'the first call in flight');
      const socket = connect(server.port, '127.0.0.1', () => socket.write('GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer okGoneWhileQueued\r\n\r\n'));
      socket.on('error', () => {});
      await until(() => client.load.queued === 1, 15_000, 'the second call queued');
      socket.destroy();
      expect((await answered).status).toBe(200);
      // Every call has ended: one that had stayed queued would have been sent once the slot freed.
      await until(() => client.load.active === 0 && client.load.queued === 0, 15_000, 'every call ended');
      expect(emulator.requests({ endpoint: 'E2' }).length).toBe(1);
    } finally {
      await server.close();
      await client.close();
    }
  });
});
