import { DEMO } from '../support/client-harness.js';
import { nextIo, openIo, probeWs, refusedIo, useSlowPlatformRealtime } from '../support/realtime-harness.js';
import WebSocket from 'ws';
import { io as ioClient } from 'socket.io-client';

// A session end (revocation, member end) can land while a handshake is being
// verified: the connection must not come up and stay until the next
// re-verification.
describe('a session end during the handshake ends the connection at once', () => {
  const fx = useSlowPlatformRealtime();

  function connectIo(token: string) {
    const socket = ioClient(fx.rt.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
    const events: Array<[string, unknown]> = [];
    socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    return { socket, events, gone };
  }

  it('Socket.IO: endMemberSessions while the handshake is in E2 verification ends the socket with session:ended admin', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const { events, gone } = connectIo(fx.emulator.login(DEMO.admin).access_token);
    await fx.e2InFlight();
    await fx.rt.client.endMemberSessions(DEMO.admin, 'admin');
    expect(await gone).toBe('io server disconnect');
    expect(events).toContainEqual(['session:ended', { reason: 'admin' }]);
    expect(fx.rt.registry.size).toBe(0);
  });

  it('Socket.IO: revokeUserToken while the handshake is in E2 verification: refused (relogin) or ended (logout), never left up', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const token = fx.emulator.login(DEMO.admin).access_token;
    const refused = refusedIo(fx.rt.url, { token });
    await fx.e2InFlight();
    await fx.rt.client.revokeUserToken(token);
    expect((await refused).data).toMatchObject({ status: 401, action: 'relogin' });
    expect(fx.rt.registry.size).toBe(0);
  });

  it('Socket.IO: a revocation between the verification and the connection ends the socket with session:ended logout', async () => {
    const token = fx.emulator.login(DEMO.admin).access_token;
    // A middleware after the adapter's: the token is verified, the socket not connected yet.
    fx.rt.io.use((_socket, next) => void fx.rt.client.revokeUserToken(token).then(() => next()));
    const { events, gone } = connectIo(token);
    expect(await gone).toBe('io server disconnect');
    expect(events).toContainEqual(['session:ended', { reason: 'logout' }]);
    expect(events.map(([event]) => event)).not.toContain('session');
    expect(fx.rt.registry.size).toBe(0);
  });

  it('ws: endMemberSessions while the upgrade is in E2 verification closes it 4403 with session:ended admin', async () => {
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const probe = probeWs(new WebSocket(fx.rt.wsUrl.replace('/ws', '/ws'), { headers: { Authorization: `Bearer ${fx.emulator.login(DEMO.admin).access_token}` } }));
    await fx.e2InFlight();
    await fx.rt.client.endMemberSessions(DEMO.admin, 'admin');
    expect(await probe.closed).toEqual({ code: 4403, reason: 'admin' });
    expect(probe.messages).toEqual([{ type: 'session:ended', reason: 'admin' }]);
    expect(fx.rt.registry.size).toBe(0);
  });

  it('a member end before the handshake began does not end the new connection', async () => {
    await fx.rt.client.endMemberSessions(DEMO.admin, 'admin');
    fx.emulator.advanceClock(1);
    const { socket } = await openIo(fx.rt.url, { token: fx.emulator.login(DEMO.admin).access_token });
    expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    socket.close();
    void nextIo;
  });
});
