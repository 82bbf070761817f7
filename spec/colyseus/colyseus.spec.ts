import '../support/msgpackr-js-only.js';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Room, Server, type AuthContext, type Client } from '@colyseus/core';
import { WebSocketTransport } from '@colyseus/ws-transport';
import { Client as ColyseusClient, type Room as ClientRoom } from '@colyseus/sdk';
import { createAuthenticator } from '../../lib/auth/index.js';
import { gamePlatformRoomAuth } from '../../lib/colyseus/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import { configFor, DEMO, startTestEmulator } from '../support/client-harness.js';
import { until } from '../support/until.js';

// An SDK client that hands out its room before the join completes (to drop it mid-join).
class CapturingClient extends ColyseusClient {
  room: ClientRoom | undefined;
  /** Called with each room as soon as it exists (a message that follows the join at once is not missed). */
  onRoom: ((room: ClientRoom) => void) | undefined;
  protected override createRoom(roomName: string, rootSchema?: never): ClientRoom {
    const room = super.createRoom(roomName, rootSchema);
    this.room = room;
    this.onRoom?.(room);
    return room;
  }
}

/** Joins through a capturing client, listening for `session` before the join confirmation arrives. */
async function joinWithSession(colyseus: CapturingClient, room: string, options: Record<string, unknown>): Promise<[ClientRoom, Promise<Record<string, unknown>>]> {
  let session: Promise<Record<string, unknown>> | undefined;
  colyseus.onRoom = (r) => {
    session = nextMessage(r, 'session');
  };
  const joined = await colyseus.joinOrCreate(room, options);
  return [joined, session!];
}

function nextMessage(room: ClientRoom, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve) => room.onMessage(type, (message: Record<string, unknown>) => resolve(message)));
}
function left(room: ClientRoom): Promise<number> {
  return new Promise((resolve) => room.onLeave((code: number) => resolve(code)));
}
/** Ends the admin's sessions through `registry` and expects `room` told and closed with 4403. */
async function expectEndedByAdmin(registry: SessionRegistry, room: ClientRoom): Promise<void> {
  const ended = nextMessage(room, 'session:ended');
  const code = left(room);
  expect(registry.endMember(DEMO.admin, 'admin')).toBe(1);
  expect(await ended).toEqual({ reason: 'admin' });
  expect(await code).toBe(4403);
}

// The SDK warns on console about what these tests do on purpose: messages the test room does not
// listen for (`session`, `session:ended`) and rooms the server closes. Only those lines are dropped.
const EXPECTED_SDK_WARNINGS = /^(@colyseus\/sdk: onMessage\(\) not registered for type|Room connection was closed unexpectedly)/;
const consoleWarn = console.warn;
beforeAll(() => {
  console.warn = (...args: unknown[]) => {
    if (!EXPECTED_SDK_WARNINGS.test(String(args[0]))) consoleWarn(...args);
  };
});
afterAll(() => {
  console.warn = consoleWarn;
});

describe('Colyseus rooms (real @colyseus/core 0.18 server and @colyseus/sdk client)', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let registry: SessionRegistry;
  let gameServer: Server;
  let http: HttpServer;
  let url: string;
  let authSettled = 0;
  const reconnections: boolean[] = [];
  let allowReconnection = false;
  // Resolved once the room holds the dropped client's seat: a reconnection sent earlier is refused.
  let seatHeld: () => void = () => undefined;
  const nextSeatHeld = (): Promise<void> => new Promise((resolve) => (seatHeld = resolve));
  beforeAll(async () => {
    emulator = await startTestEmulator();
    client = new PlatformClient(configFor(emulator));
    const authenticate = createAuthenticator(client);
    registry = new SessionRegistry({ authenticate, now: () => emulator.now(), reverifyIntervalMs: 0, reverifyGraceMs: 60_000 });
    const auth = gamePlatformRoomAuth({ authenticate, registry });
    class Lobby extends Room {
      override onCreate(): void {
        auth.register(this);
      }
      override onAuth(c: Client, options: unknown, context: AuthContext): Promise<unknown> {
        return auth.onAuth(c, options, context).finally(() => void (authSettled += 1));
      }
    }
    // Keeps a dropped player's seat for 20 s and registers it again when it comes back.
    class Sticky extends Lobby {
      override async onDrop(c: Client): Promise<void> {
        // Only the drops a test makes (a server-side close would leave a 20 s timer behind).
        if (!allowReconnection) return;
        allowReconnection = false;
        try {
          const reconnection = this.allowReconnection(c, 20);
          seatHeld();
          const back = await reconnection;
          reconnections.push(await auth.reconnected(back));
        } catch {
          // Did not come back in time.
        }
      }
    }
    http = createServer();
    const quiet = (): void => undefined;
    gameServer = new Server({ transport: new WebSocketTransport({ server: http }), greet: false, logger: { debug: quiet, info: quiet, warn: quiet, error: quiet, log: quiet, trace: quiet } });
    gameServer.define('lobby', Lobby);
    gameServer.define('sticky', Sticky);
    await gameServer.listen(0, '127.0.0.1');
    url = `ws://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    registry.closeAll('shutdown');
    await gameServer.gracefullyShutdown(false);
    await client.close();
    await emulator.close();
  });

  it('joins with the token in the join options, sends session, answers ping, refreshes in band', async () => {
    const pair = emulator.login(DEMO.admin);
    const [room, session] = await joinWithSession(new CapturingClient(url), 'lobby', { token: pair.access_token });
    expect(await session).toEqual({ member_no: DEMO.admin, guid: expect.any(String) });
    const pong = nextMessage(room, 'pong');
    room.send('ping');
    expect(await pong).toEqual({ member_no: DEMO.admin });
    const refreshed = nextMessage(room, 'auth:refreshed');
    room.send('auth:refresh', { token: emulator.refresh(pair.refresh_token).access_token });
    expect(await refreshed).toEqual({ member_no: DEMO.admin });
    expect(await registry.reverifier.verifyAll()).toMatchObject({ verified: 1, ended: 0 });
    await room.leave();
  });

  // A client can drop while onAuth is verifying its token, before the helper
  // listens for its close: it must not stay in the registry.
  it('never registers a client that left while onAuth was verifying its token', async () => {
    emulator.clearRequests();
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 1 });
    const colyseus = new CapturingClient(url);
    const joining = colyseus.joinOrCreate('lobby', { token: emulator.login(DEMO.admin).access_token }).catch((err: unknown) => err);
    await until(() => emulator.requests({ endpoint: 'E2' }).some((r) => r.status === null), 15_000, 'an E2 call in flight');
    const before = authSettled;
    colyseus.room!.connection.close();
    await until(() => authSettled > before, 15_000, 'onAuth to settle');
    expect(registry.size).toBe(0);
    expect(registry.endMember(DEMO.admin, 'admin')).toBe(0);
    await joining;
  });

  // Joins with `token` through `colyseus`, then loses the connection; resolves once the room holds the seat.
  async function dropWithSeatHeld<C extends ColyseusClient>(token: string, colyseus: C): Promise<{ colyseus: C; room: ClientRoom }> {
    const room = await colyseus.joinOrCreate('sticky', { token });
    allowReconnection = true;
    const held = nextSeatHeld();
    const dropped = left(room);
    room.connection.close(4999, 'network');
    await dropped;
    await held;
    return { colyseus, room };
  }

  // A client back through allowReconnection keeps client.auth; it must be in
  // the registry again too (ping, refresh, re-verification, session end).
  describe('allowReconnection: reconnected(client) registers the client again', () => {
    async function dropAndReconnect(token: string): Promise<ClientRoom> {
      const { colyseus, room } = await dropWithSeatHeld(token, new ColyseusClient(url));
      await until(() => registry.size === 0, 15_000, 'the dropped client to leave the registry');
      return colyseus.reconnect(room.reconnectionToken);
    }

    it('verifies the token again and registers it: ping, session end', async () => {
      const before = reconnections.length;
      const room = await dropAndReconnect(emulator.login(DEMO.admin).access_token);
      await until(() => reconnections.length > before, 15_000, 'reconnected() to settle');
      expect(reconnections.at(-1)).toBe(true);
      expect(registry.size).toBe(1);
      const pong = nextMessage(room, 'pong');
      room.send('ping');
      expect(await pong).toEqual({ member_no: DEMO.admin });
      await expectEndedByAdmin(registry, room);
    });

    it('ends a client whose token was logged out meanwhile (auth:expired relogin, 4401)', async () => {
      const { access_token } = emulator.login(DEMO.admin);
      const { colyseus, room } = await dropWithSeatHeld(access_token, new ColyseusClient(url));
      emulator.logout(access_token);
      const before = reconnections.length;
      const again = await colyseus.reconnect(room.reconnectionToken);
      const expired = nextMessage(again, 'auth:expired');
      const code = left(again);
      await until(() => reconnections.length > before, 15_000, 'reconnected() to settle');
      expect(reconnections.at(-1)).toBe(false);
      expect(await expired).toEqual({ action: 'relogin', code: 40000 });
      expect(await code).toBe(4401);
      expect(registry.size).toBe(0);
    });

    it('does not let back a client the server ended (session:ended admin): auth:expired login, 4401', async () => {
      const colyseus = new CapturingClient(url);
      const room = await colyseus.joinOrCreate('sticky', { token: emulator.login(DEMO.admin).access_token });
      allowReconnection = true;
      const held = nextSeatHeld();
      const code = left(room);
      expect(registry.endMember(DEMO.admin, 'admin')).toBe(1);
      expect(await code).toBe(4403);
      await held;
      const before = reconnections.length;
      // The refusal follows the reconnection's confirmation at once: listen on the room before it resolves.
      const listening = new Promise<[Promise<Record<string, unknown>>, Promise<number>]>((resolve) => {
        colyseus.onRoom = (again) => resolve([nextMessage(again, 'auth:expired'), left(again)]);
      });
      await colyseus.reconnect(room.reconnectionToken);
      const [expired, gone] = await listening;
      await until(() => reconnections.length > before, 15_000, 'reconnected() to settle');
      expect(reconnections.at(-1)).toBe(false);
      expect(await expired).toEqual({ action: 'login' });
      expect(await gone).toBe(4401);
      expect(registry.size).toBe(0);
    });
  });

  it('refuses a logged-out token with the action as message and its close code', async () => {
    const { access_token } = emulator.login(DEMO.admin);
    emulator.logout(access_token);
    await expect(new ColyseusClient(url).joinOrCreate('lobby', { token: access_token })).rejects.toMatchObject({ code: 4401, message: 'relogin' });
    await expect(new ColyseusClient(url).joinOrCreate('lobby', {})).rejects.toMatchObject({ code: 4401, message: 'login' });
  });

  it('refuses a token in the URL (client.auth.token puts it there) with 4401 login', async () => {
    const colyseus = new ColyseusClient(url);
    colyseus.auth.token = emulator.login(DEMO.admin).access_token;
    await expect(colyseus.joinOrCreate('lobby', {})).rejects.toMatchObject({ code: 4401, message: 'login' });
  });

  it('refuses a token in the URL even when the Authorization header carries the same token, and accepts the header alone', async () => {
    const token = emulator.login(DEMO.admin).access_token;
    const both = new ColyseusClient(url, { headers: { authorization: `Bearer ${token}` } });
    both.auth.token = token;
    emulator.clearRequests();
    await expect(both.joinOrCreate('lobby', {})).rejects.toMatchObject({ code: 4401, message: 'login' });
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    const [room, session] = await joinWithSession(new CapturingClient(url, { headers: { authorization: `Bearer ${token}` } }), 'lobby', {});
    expect(await session).toEqual({ member_no: DEMO.admin, guid: expect.any(String) });
    await room.leave();
  });

  it('sends session again to a client back through allowReconnection', async () => {
    const { colyseus, room } = await dropWithSeatHeld(emulator.login(DEMO.admin).access_token, new CapturingClient(url));
    const session = new Promise<Record<string, unknown>>((resolve) => {
      colyseus.onRoom = (again) => resolve(nextMessage(again, 'session'));
    });
    const again = await colyseus.reconnect(room.reconnectionToken);
    expect(await session).toEqual({ member_no: DEMO.admin, guid: expect.any(String) });
    await again.leave();
  });

  it('session:ended admin ends the member\'s room connections', async () => {
    const room = await new ColyseusClient(url).joinOrCreate('lobby', { token: emulator.login(DEMO.admin).access_token });
    await expectEndedByAdmin(registry, room);
  });

  it('re-verification: a logged-out token gets auth:expired relogin and leaves with 4401; an outage only after the grace', async () => {
    const { access_token } = emulator.login(DEMO.admin);
    const room = await new ColyseusClient(url).joinOrCreate('lobby', { token: access_token });
    const kept = await new ColyseusClient(url).joinOrCreate('lobby', { token: emulator.login('20005061987').access_token });
    const expired = nextMessage(room, 'auth:expired');
    const code = left(room);
    emulator.logout(access_token);
    await registry.reverifier.verifyAll();
    expect(await expired).toEqual({ action: 'relogin', code: 40000 });
    expect(await code).toBe(4401);
    emulator.injectFault({ type: 'http5xx', endpoint: 'E2', count: Infinity });
    expect(await registry.reverifier.verifyAll()).toMatchObject({ ended: 0 });
    emulator.advanceClock(60_000);
    const later = nextMessage(kept, 'auth:expired');
    const keptCode = left(kept);
    await registry.reverifier.verifyAll();
    expect(await later).toEqual({ action: 'retry_later' });
    expect(await keptCode).toBe(1013);
    emulator.clearFaults();
  });

  // The registry's auth:refresh limit covers rooms too.
  it('answers a refresh beyond the limit with auth:refresh-failed 429 retry_later, and one without a token with 400 login', async () => {
    const room = await new ColyseusClient(url).joinOrCreate('lobby', { token: emulator.login(DEMO.admin).access_token });
    const failed: Array<Record<string, unknown>> = [];
    room.onMessage('auth:refresh-failed', (message: Record<string, unknown>) => failed.push(message));
    emulator.clearRequests();
    room.send('auth:refresh', { token: emulator.login(DEMO.admin).access_token });
    room.send('auth:refresh', { token: emulator.login(DEMO.admin).access_token });
    room.send('auth:refresh');
    const refreshed = await nextMessage(room, 'auth:refreshed');
    expect(refreshed).toEqual({ member_no: DEMO.admin });
    expect(failed).toEqual([
      { problem: expect.objectContaining({ status: 429, action: 'retry_later' }) },
      { problem: expect.objectContaining({ status: 400, action: 'login' }) },
    ]);
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(1);
    await room.leave();
  });
});
