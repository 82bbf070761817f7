import http from 'node:http';
import type { Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PlatformClient } from '../../lib/index.js';
import { rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

// close() stops everything: timers, sockets, calls in flight.

describe('PlatformClient.close()', () => {
  let server: http.Server;
  const open = new Set<Socket>();
  let e2Requests = 0;
  let url: string;
  beforeEach(async () => {
    e2Requests = 0;
    server = http.createServer((req, res) => {
      if (req.url?.startsWith('/auth/')) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"code":0,"response_data":{"access_token":"api-token"}}');
        return;
      }
      e2Requests += 1; // and never answered: a platform that hangs
    });
    server.on('connection', (socket) => {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterEach(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('ends calls in flight with 503, refuses new ones at once, and leaves no socket open', async () => {
    const client = new PlatformClient({ baseUrl: url, clientId: 'c', clientSecret: 's', gameId: 'g', timeoutMs: 10_000, totalTimeoutMs: 20_000 });
    await client.provider.getToken();
    const inFlight = [rejectionOf(() => client.verifyUserToken('token-one')), rejectionOf(() => client.verifyUserToken('token-two'))];
    while (e2Requests < 2) await new Promise((resolve) => setImmediate(resolve));
    // The platform never answers: only close() can end these calls.
    await client.close();
    for (const error of await Promise.all(inFlight)) {
      expect(expectPlatformError(error, 'platform_unavailable', 503).message).toContain('client is closed');
    }
    // Not retried on a new socket.
    expect(e2Requests).toBe(2);
    const later = expectPlatformError(await rejectionOf(() => client.verifyUserToken('token-three')), 'platform_unavailable', 503);
    expect(later.message).toContain('client is closed');
    expectPlatformError(await rejectionOf(() => client.lookupMember({ memberNo: '1' })), 'platform_unavailable', 503);
    expect(e2Requests).toBe(2);
    while (open.size > 0) await new Promise((resolve) => setImmediate(resolve));
    expect(open.size).toBe(0);
    expect(client.load).toMatchObject({ active: 0, queued: 0 });
  });
});

describe('a caller that hangs up', () => {
  it('is answered at once; with nobody else waiting, its exchange completes and the connection is kept', async () => {
    const { startRawServer, sendJsonText } = await import('../support/client-raw-server.js');
    // The first E2 answer is held until the test releases it.
    let release: (() => void) | undefined;
    const server = await startRawServer((req, res) => {
      const answer = (): void => sendJsonText(res, 200, '{"code":0,"value":{"member_no":1}}');
      if (req.url.startsWith('/auth/')) sendJsonText(res, 200, '{"code":0,"response_data":{"access_token":"api-token"}}');
      else if (server.requests.length === 2) release = answer;
      else answer();
    });
    const client = new PlatformClient({ baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g' });
    try {
      await client.provider.getToken();
      const controller = new AbortController();
      const pending = rejectionOf(() => client.verifyUserToken('token-one', { signal: controller.signal }));
      while (server.requests.length < 2) await new Promise((resolve) => setImmediate(resolve));
      controller.abort();
      expectPlatformError(await pending, 'platform_unavailable', 503);
      // Answered before the platform: its exchange still holds the slot.
      expect(client.load.active).toBe(1);
      release?.();
      while (client.load.active > 0) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(await client.verifyUserToken('token-two')).toEqual({ memberNo: '1', guid: null });
      // E1, the abandoned E2 and the next E2 all went over one keep-alive connection.
      expect([server.requests.length, server.connections()]).toEqual([3, 1]);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
