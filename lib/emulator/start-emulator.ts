import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createContext } from './context.js';
import { createDispatcher } from './dispatch.js';
import * as ops from './operations.js';
import type { HeldSet, TimerSet } from './apply-fault.js';
import type { Emulator, EmulatorOptions } from './types.js';

function baseUrl(host: string, port: number): string {
  const h = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${h.includes(':') ? `[${h}]` : h}:${port}`;
}

/**
 * Starts the platform emulator on loopback (E1, E2, E3, the web token route, the test-control
 * API under `/_emulator/` and the browser login page).
 *
 * @example
 * ```ts
 * import { startEmulator } from 'passport-game-platform/emulator';
 * const emulator = await startEmulator({ errorStatus: 'http' });
 * const { access_token } = emulator.login('20005061986', 'demo-game');
 * // ... call `${emulator.url}/member/v3.0/demo-game/token/verify`
 * emulator.advanceClock(6 * 3_600_000); // the user token has now expired
 * await emulator.close();
 * ```
 */
export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const ctx = createContext(options);
  const timers: TimerSet = new Set();
  const held: HeldSet = new Set();
  const server = createServer(createDispatcher(ctx, { timers, held }));
  if (ctx.options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = ctx.options.keepAliveTimeoutMs;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(ctx.options.port, ctx.options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: baseUrl(ctx.options.host, port),
    port,
    environment: ctx.options.environment,
    login: (memberNo, gameId) => ops.login(ctx, memberNo, gameId),
    refresh: (token) => ops.refresh(ctx, token),
    logout: (token) => ops.logout(ctx, token),
    issueWebToken: (memberNo) => ops.issueWebToken(ctx, memberNo),
    advanceClock: (ms) => void ctx.clock.advance(ms),
    now: () => ctx.clock.now(),
    injectFault: (fault) => void ctx.faults.add(fault),
    pendingFaults: () => ctx.faults.pending(),
    clearFaults: () => void ctx.faults.clear(),
    held: () => held.size,
    releaseHeld: () => {
      const released = [...held];
      for (const release of released) release();
      return released.length;
    },
    requests: (filter) => ctx.log.list(filter),
    clearRequests: () => ctx.log.clear(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        for (const t of timers) clearTimeout(t);
        timers.clear();
        held.clear();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
