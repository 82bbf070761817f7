import request from 'supertest';
import { SimulatedClient } from '../../lib/testkit/index.js';
import type { Realtime } from '../../example-app/realtime.js';
import { DEMO, listenWithRealtime, startAppHarness } from '../support/app-harness.js';
import { openIo } from '../support/realtime-harness.js';
import type { AppHarness } from '../support/app-harness.js';

// The spec's common authentication flow (five steps) with a scripted game
// client talking to the example app, on the emulator's clock.

const LIFETIME_MS = 6 * 3_600_000;
let h: AppHarness;

beforeAll(async () => {
  h = await startAppHarness();
});

afterAll(async () => {
  await h.close();
});

function newClient(): SimulatedClient {
  return new SimulatedClient({ emulatorUrl: h.emulator.url, gameId: DEMO.gameId, clock: h.emulator });
}

function getMe(token: string | null) {
  const req = request(h.app).get('/api/me');
  return token === null ? req : req.set('Authorization', `Bearer ${token}`);
}

describe('the five-step flow through the example app', () => {
  it('login, read the token, send it, the server gets an API token once and verifies each call', async () => {
    h.emulator.clearRequests();
    const client = newClient();
    await client.login(DEMO.player); // 1
    for (let i = 0; i < 3; i += 1) {
      const token = await client.readAccessToken(); // 2: read at each use
      const res = await getMe(token); // 3
      expect(res.status).toBe(200); // 5
      expect(res.body).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
    }
    expect(h.emulator.requests({ endpoint: 'E1' }).length).toBeLessThanOrEqual(1); // 4: shared, cached
    expect(h.emulator.requests({ endpoint: 'E2' })).toHaveLength(3);
  });

  it('keeps working across the SDK renewal at 80 %; a server-held old copy gets 401 relogin', async () => {
    const client = newClient();
    const first = await client.login(DEMO.player);
    h.emulator.advanceClock(LIFETIME_MS * 0.8);
    const renewed = await client.readAccessToken();
    expect(renewed).not.toBe(first);
    expect((await getMe(renewed)).status).toBe(200);
    const stale = await getMe(first);
    expect(stale.status).toBe(401);
    expect(stale.body).toMatchObject({ action: 'relogin', code: 40000 });
  });

  it('after logout the client reads null and the old token gets 401 relogin', async () => {
    const client = newClient();
    const token = await client.login(DEMO.player);
    await client.logout();
    const read = await client.readAccessToken();
    expect(read).toBeNull();
    expect((await getMe(read)).body.action).toBe('login'); // no token: start the login flow
    const old = await getMe(token);
    expect(old.status).toBe(401);
    expect(old.body.action).toBe('relogin');
  });

  it('after a long suspension: 401 relogin, the client re-reads, still expired, re-logs in, and works', async () => {
    const client = newClient();
    await client.login(DEMO.player);
    expect((await getMe(await client.readAccessToken())).status).toBe(200);
    client.suspend();
    h.emulator.advanceClock(LIFETIME_MS + 3_600_000);
    client.resume();
    const stale = await client.readAccessToken();
    const refused = await getMe(stale);
    expect(refused.status).toBe(401);
    expect(refused.body).toMatchObject({ action: 'relogin', code: 40000 });
    const recovered = await client.recoverFromUnauthorized(stale);
    expect(recovered.how).toBe('relogin');
    const res = await getMe(recovered.token);
    expect(res.status).toBe(200);
    expect(res.body.member_no).toBe(DEMO.player);
  });

  it('a re-login changes the token; the previous one gets 401 relogin', async () => {
    const client = newClient();
    const first = await client.login(DEMO.player);
    const second = await client.login(DEMO.player);
    expect((await getMe(first)).status).toBe(401);
    expect((await getMe(second)).status).toBe(200);
  });
});

describe('a 7-hour session on one live connection', () => {
  it('stays connected through SDK renewals by refreshing in band, re-verified on the emulator clock', async () => {
    const app = await listenWithRealtime(h.app);
    const registry = (h.app.locals.realtime as Realtime).registry;
    try {
      const client = newClient();
      const first = await client.login(DEMO.player);
      const { socket } = await openIo(app.url, { token: first });
      client.holdSocket(socket);
      // Seven hours in 15-minute steps: the SDK renews at 80 % (4.8 h), the server re-verifies each step.
      for (let elapsed = 0; elapsed < 7 * 3_600_000; elapsed += 900_000) {
        h.emulator.advanceClock(900_000);
        await client.tick();
        expect(await registry.reverifier.verifyAll()).toMatchObject({ ended: 0 });
        expect(socket.connected).toBe(true);
      }
      expect(client.renewals).toBe(1);
      expect(client.socketRefreshes).toBe(1);
      expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.player });
      // The first token died with the renewal; the connection lives on the new one.
      expect((await getMe(first)).status).toBe(401);
      socket.close();
    } finally {
      await app.close();
    }
  });
});
