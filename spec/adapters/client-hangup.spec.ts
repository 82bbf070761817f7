import { connect } from 'node:net';
import type { VerifyCallOptions } from '../../lib/auth/types.js';
import type { PlatformClient } from '../../lib/client/index.js';
import { CALLER_GONE } from '../../lib/http/aborted.js';
import { ADAPTERS } from '../support/adapter-servers.js';

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
