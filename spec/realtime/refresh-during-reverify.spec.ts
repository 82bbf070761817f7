import { randomBytes } from 'node:crypto';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { DEMO } from '../support/client-harness.js';
import { ioDisconnected, nextIo, openIo, openWs, useSlowPlatformRealtime } from '../support/realtime-harness.js';

// A re-verification of the old token (40000 once the platform has refreshed
// it) must not end a connection whose auth:refresh with the new token is
// still being verified and will succeed.
describe('a refresh in flight and a re-verification of the token it replaces', () => {
  const fx = useSlowPlatformRealtime();
  const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

  it('ws: the refresh wins: the connection moves to the new token and stays up', async () => {
    const pair = fx.emulator.login(DEMO.admin);
    const probe = await openWs(fx.rt.wsUrl, bearer(pair.access_token));
    const renewed = fx.emulator.refresh(pair.refresh_token);
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 1 });
    probe.ws.send(JSON.stringify({ type: 'auth:refresh', token: renewed.access_token }));
    await fx.e2InFlight();
    expect(await fx.rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
    expect(await probe.next('auth:refreshed')).toEqual({ type: 'auth:refreshed', member_no: DEMO.admin });
    expect(fx.rt.registry.byTokenKey(tokenKey(renewed.access_token))).toHaveLength(1);
    expect(fx.rt.registry.byTokenKey(tokenKey(pair.access_token))).toHaveLength(0);
    expect(probe.messages.map((m) => m.type)).not.toContain('auth:expired');
    expect(await fx.rt.registry.reverifier.verifyAll()).toMatchObject({ verified: 1, ended: 0 });
    probe.ws.close();
    await probe.closed;
  });

  it('ws: a failed refresh ends the connection then with the re-verification\'s answer (auth:expired relogin, 4401)', async () => {
    const pair = fx.emulator.login(DEMO.admin);
    const probe = await openWs(fx.rt.wsUrl, bearer(pair.access_token));
    fx.emulator.refresh(pair.refresh_token);
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 1 });
    probe.ws.send(JSON.stringify({ type: 'auth:refresh', token: randomBytes(24).toString('base64url') }));
    await fx.e2InFlight();
    expect(await fx.rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
    expect(await probe.closed).toEqual({ code: 4401, reason: 'relogin' });
    expect(probe.messages.at(-1)).toEqual({ type: 'auth:expired', action: 'relogin', code: 40000 });
    expect(fx.rt.registry.size).toBe(0);
  });

  it('Socket.IO: the refresh wins and is acknowledged; the socket stays up', async () => {
    const pair = fx.emulator.login(DEMO.admin);
    const { socket } = await openIo(fx.rt.url, { token: pair.access_token });
    const renewed = fx.emulator.refresh(pair.refresh_token);
    fx.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 1000, count: 1 });
    let expired = false;
    socket.on('auth:expired', () => void (expired = true));
    const ack = socket.emitWithAck('auth:refresh', { token: renewed.access_token });
    await fx.e2InFlight();
    expect(await fx.rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
    expect(await ack).toEqual({ ok: true, member_no: DEMO.admin });
    expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    expect(expired).toBe(false);
    const gone = ioDisconnected(socket);
    socket.close();
    await gone;
    void nextIo;
  });
});
