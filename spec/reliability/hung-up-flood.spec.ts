import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { randomBytes } from 'node:crypto';
import { isPlatformError, PlatformClient } from '../../lib/index.js';
import { CALLER_GONE } from '../../lib/platform-call/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, startTestEmulator } from '../support/client-harness.js';

// A flood of garbage tokens from clients that hang up must not become platform
// calls, nor make a real player wait behind them.

const FLOOD = 1000;
const PLATFORM_MS = 2000;

/** A protected route the way an adapter does it: the request's signal aborts when its client goes. */
function protectedServer(client: PlatformClient, seen: { closed: number } = { closed: 0 }): http.Server {
  return http.createServer((req, res) => {
    const controller = new AbortController();
    res.on('close', () => {
      seen.closed += 1;
      // A plain object as the reason: no DOMException (and its stack) per hung-up request.
      if (!res.writableFinished) controller.abort(CALLER_GONE);
    });
    const token = (req.headers.authorization ?? '').slice('Bearer '.length);
    client.verifyUserToken(token, { signal: controller.signal }).then(
      (user) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(user)),
      (error: unknown) => {
        if (!res.destroyed) res.writeHead(isPlatformError(error) ? error.status : 500).end();
      },
    );
  });
}

describe('a flood of hung-up garbage requests', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let server: http.Server;
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await client.close();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await emulator.close();
  });

  it('costs fewer platform calls than requests, and a real player is answered before the flood\'s calls would have been made', async () => {
    emulator = await startTestEmulator();
    client = new PlatformClient(configFor(emulator, { timeoutMs: 5000, totalTimeoutMs: 15_000, retries: 0 }));
    await client.provider.getToken();
    const seen = { closed: 0 };
    server = protectedServer(client, seen);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: PLATFORM_MS, count: -1 });
    let received = 0;
    server.on('request', () => {
      received += 1;
    });
    for (let i = 0; i < FLOOD; i += 1) {
      const socket = connect(port, '127.0.0.1');
      socket.on('error', () => {});
      socket.write(`GET /api/me HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${randomBytes(24).toString('base64url')}\r\n\r\n`);
      sockets.push(socket);
    }
    while (received < FLOOD) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(client.load.queued).toBeGreaterThan(0);
    // Every flooding client hangs up; once the server has seen them go, a real player asks.
    for (const socket of sockets.splice(0)) socket.destroy();
    while (seen.closed < FLOOD) await new Promise((resolve) => setTimeout(resolve, 5));
    const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
    const answer = await fetch(`http://127.0.0.1:${port}/api/me`, { headers: { authorization: `Bearer ${token}` } });
    expect([answer.status, await answer.json()]).toEqual([200, { memberNo: DEMO.admin, guid: DEMO.adminGuid }]);
    // Counted when the player is answered: queued behind the flood, the player would come after
    // all of its calls. Typically 65-130; on a heavily loaded machine up to a few hundred.
    expect(emulator.requests({ endpoint: 'E2' }).length).toBeLessThan(FLOOD / 2);
    expect(client.load).toMatchObject({ active: 0, queued: 0 });
  }, 90_000); // opening 1,000 sockets is slow on a busy machine

  it('answers a refused token again from memory for a few seconds, without another platform call', async () => {
    emulator = await startTestEmulator({ clock: 'frozen' });
    client = new PlatformClient(configFor(emulator, { invalidTokenCacheMs: 5000 }));
    server = protectedServer(client);
    const garbage = randomBytes(24).toString('base64url');
    for (let i = 0; i < 5; i += 1) {
      const error = await client.verifyUserToken(garbage).catch((e: unknown) => e);
      expect(isPlatformError(error) && [error.status, error.code, error.action]).toEqual([401, 40000, 'relogin']);
    }
    expect(emulator.requests({ endpoint: 'E2' }).length).toBe(1);
    emulator.advanceClock(5001);
    await client.verifyUserToken(garbage).catch(() => undefined);
    expect(emulator.requests({ endpoint: 'E2' }).length).toBe(2);
  });
  it('gives a caller that has waited a second the slot of a call in flight whose caller has gone, instead of queueing it behind a slow answer', async () => {
    emulator = await startTestEmulator();
    server = protectedServer(client = new PlatformClient(configFor(emulator, { maxConcurrentCalls: 2, timeoutMs: 60_000, totalTimeoutMs: 60_000, retries: 0 })));
    await client.provider.getToken();
    // The two slots are taken by calls the platform answers after a minute; their callers then leave
    // while nothing waits, so both exchanges are left running to keep their connections.
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 60_000, count: 2 });
    const gone = [new AbortController(), new AbortController()];
    const abandoned = gone.map((c) => client.verifyUserToken(randomBytes(24).toString('base64url'), { signal: c.signal }).catch((e: unknown) => e));
    while (emulator.requests({ endpoint: 'E2' }).length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    for (const c of gone) c.abort(CALLER_GONE);
    expect(client.load).toMatchObject({ active: 2, queued: 0 });
    // A real player now: answered after about a second in the queue, not after the abandoned minute.
    const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
    expect(await client.verifyUserToken(token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(client.load.active).toBeLessThanOrEqual(1);
    await Promise.all(abandoned);
  }, 30_000);
});
