import { Manager, io as ioClient, type Socket as ClientSocket } from 'socket.io-client';
import { Encoder, PacketType } from 'socket.io-parser';
import { gameUser } from '../../lib/socket-io/index.js';
import { DEMO } from '../support/client-harness.js';
import { useSlowPlatformRealtime } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

function connectTo(url: string, token?: string): ClientSocket {
  return ioClient(url, { transports: ['websocket'], reconnection: false, forceNew: true, ...(token === undefined ? {} : { auth: { token } }) });
}

function outcome(socket: ClientSocket): Promise<{ session?: unknown; error?: Error & { data?: Record<string, unknown> } }> {
  return new Promise((resolve) => {
    socket.once('session', (session: unknown) => resolve({ session }));
    socket.once('connect_error', (error) => resolve({ error }));
  });
}

describe('Socket.IO namespaces', () => {
  const fixture = useSlowPlatformRealtime();

  // A namespace made after the guard is installed must not take clients with no token at all.
  it('guards a namespace created later: no token gets connect_error login, a token gets session and the typed player', async () => {
    const seen: string[] = [];
    fixture.rt.io.of('/match').on('connection', (socket) => seen.push(gameUser(socket).memberNo));
    const anonymous = connectTo(`${fixture.rt.url}/match`);
    const refused = await outcome(anonymous);
    anonymous.close();
    expect(refused.error?.message).toBe('login');
    expect(refused.error?.data).toMatchObject({ status: 401, action: 'login' });
    expect(seen).toEqual([]);

    const player = connectTo(`${fixture.rt.url}/match`, fixture.emulator.login(DEMO.admin).access_token);
    expect(await outcome(player)).toEqual({ session: { member_no: DEMO.admin, guid: DEMO.adminGuid } });
    expect(await player.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    expect(seen).toEqual([DEMO.admin]);
    player.close();
  });

  it('guards the children of a dynamic namespace', async () => {
    fixture.rt.io.of(/^\/room-\d+$/);
    const anonymous = connectTo(`${fixture.rt.url}/room-7`);
    const refused = await outcome(anonymous);
    anonymous.close();
    expect(refused.error?.message).toBe('login');
    const player = connectTo(`${fixture.rt.url}/room-7`, fixture.emulator.login(DEMO.admin).access_token);
    expect((await outcome(player)).session).toEqual({ member_no: DEMO.admin, guid: DEMO.adminGuid });
    player.close();
  });

  // Socket.IO builds a socket for every CONNECT packet: left alone, one
  // engine.io connection repeating CONNECT during a slow verification becomes
  // as many sessions (and platform calls).
  it('2,000 repeated CONNECT packets on one connection: at most one session per namespace, at most one E2 call each', async () => {
    fixture.rt.io.of('/match');
    const token = fixture.emulator.login(DEMO.admin).access_token;
    fixture.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 2 });
    const refusals: string[] = [];
    const manager = new Manager(fixture.rt.url, { transports: ['websocket'], reconnection: false, forceNew: true, autoConnect: false });
    await new Promise<void>((resolve, reject) => manager.open((err) => (err === undefined ? resolve() : reject(err))));
    const encoder = new Encoder();
    const frames = ['/', '/match'].map((nsp) => encoder.encode({ type: PacketType.CONNECT, nsp, data: { token } })[0] as string);
    manager.engine.on('packet', (packet) => {
      if (typeof packet.data === 'string' && packet.data.startsWith(String(PacketType.CONNECT_ERROR))) refusals.push(packet.data);
    });
    for (let i = 0; i < 2000; i++) manager.engine.write(frames[i % 2]!);
    await until(() => fixture.rt.registry.size === 2, 15_000, 'both sessions');
    await until(() => refusals.length === 1998, 15_000, 'the refusals');
    expect(fixture.emulator.requests({ endpoint: 'E2' }).length).toBeLessThanOrEqual(2);
    expect(fixture.rt.io.of('/').sockets.size).toBeLessThanOrEqual(1);
    expect(fixture.rt.io.of('/match').sockets.size).toBeLessThanOrEqual(1);
    expect(fixture.rt.registry.size).toBe(2);
    expect(JSON.parse(refusals[0]!.slice(1))).toMatchObject({ message: 'login', data: { status: 400, action: 'login' } });
    manager.engine.close();
    await until(() => fixture.rt.registry.size === 0, 15_000, 'the sessions to end');
  });
});
