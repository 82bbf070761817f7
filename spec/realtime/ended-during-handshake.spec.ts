import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { nextIo, openIo, probeWs, refusedIo, startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';
import { until } from '../support/until.js';
import WebSocket from 'ws';
import { io as ioClient } from 'socket.io-client';

// Finding: a session end (revocation, member end) that happened while a
// handshake was being verified was missed: the connection came up and stayed
// until the next re-verification.
describe('a session end during the handshake ends the connection at once', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { config: { timeoutMs: 5000, totalTimeoutMs: 10_000 } });
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearRequests();
  });
  const e2InFlight = (): Promise<void> => until(() => emulator.requests({ endpoint: 'E2' }).some((r) => r.status === null), 5000, 'an E2 call in flight');

  function connectIo(token: string) {
    const socket = ioClient(rt.url, { transports: ['websocket'], reconnection: false, forceNew: true, auth: { token } });
    const events: Array<[string, unknown]> = [];
    socket.onAny((event: string, payload: unknown) => events.push([event, payload]));
    const gone = new Promise<string>((resolve) => socket.once('disconnect', resolve));
    return { socket, events, gone };
  }

  it('Socket.IO: endMemberSessions while the handshake is in E2 verification ends the socket with session:ended admin', async () => {
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const { socket, events, gone } = connectIo(emulator.login(DEMO.admin).access_token);
    await e2InFlight();
    await rt.client.endMemberSessions(DEMO.admin, 'admin');
    expect(await gone).toBe('io server disconnect');
    expect(events).toContainEqual(['session:ended', { reason: 'admin' }]);
    expect(rt.registry.size).toBe(0);
  });

  it('Socket.IO: revokeUserToken while the handshake is in E2 verification: refused (relogin) or ended (logout), never left up', async () => {
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const token = emulator.login(DEMO.admin).access_token;
    const refused = refusedIo(rt.url, { token });
    await e2InFlight();
    await rt.client.revokeUserToken(token);
    expect((await refused).data).toMatchObject({ status: 401, action: 'relogin' });
    expect(rt.registry.size).toBe(0);
  });

  it('Socket.IO: a revocation between the verification and the connection ends the socket with session:ended logout', async () => {
    const token = emulator.login(DEMO.admin).access_token;
    // A middleware after the adapter's: the token is verified, the socket not connected yet.
    rt.io.use((_socket, next) => void rt.client.revokeUserToken(token).then(() => next()));
    const { events, gone } = connectIo(token);
    expect(await gone).toBe('io server disconnect');
    expect(events).toContainEqual(['session:ended', { reason: 'logout' }]);
    expect(events.map(([event]) => event)).not.toContain('session');
    expect(rt.registry.size).toBe(0);
  });

  it('ws: endMemberSessions while the upgrade is in E2 verification closes it 4403 with session:ended admin', async () => {
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1500, count: 1 });
    const probe = probeWs(new WebSocket(rt.wsUrl.replace('/ws', '/ws'), { headers: { Authorization: `Bearer ${emulator.login(DEMO.admin).access_token}` } }));
    await e2InFlight();
    await rt.client.endMemberSessions(DEMO.admin, 'admin');
    expect(await probe.closed).toEqual({ code: 4403, reason: 'admin' });
    expect(probe.messages).toEqual([{ type: 'session:ended', reason: 'admin' }]);
    expect(rt.registry.size).toBe(0);
  });

  it('a member end before the handshake began does not end the new connection', async () => {
    await rt.client.endMemberSessions(DEMO.admin, 'admin');
    emulator.advanceClock(1);
    const { socket } = await openIo(rt.url, { token: emulator.login(DEMO.admin).access_token });
    expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    socket.close();
    void nextIo;
  });
});
