import type { Emulator } from '../../lib/emulator/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { randomBytes } from 'node:crypto';
import { COOKIE, ioDisconnected, nextIo, openIo, refusedIo, startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

const OTHER = '20005061987';

describe('Socket.IO adapter', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { reverifyGraceMs: 60_000, minRefreshIntervalMs: 0 });
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });
  beforeEach(() => emulator.clearFaults());

  describe('refuses the handshake with connect_error (message = action, data = problem body)', () => {
    it('login when there is no token at all', async () => {
      const err = await refusedIo(rt.url);
      expect(err.message).toBe('login');
      expect(err.data).toMatchObject({ status: 401, action: 'login' });
    });

    it('relogin 40000 for a logged-out token', async () => {
      const { access_token } = emulator.login(DEMO.admin);
      emulator.logout(access_token);
      const err = await refusedIo(rt.url, { token: access_token });
      expect(err.message).toBe('relogin');
      expect(err.data).toMatchObject({ status: 401, action: 'relogin', code: 40000 });
    });

    it('register_device 46217', async () => {
      const err = await refusedIo(rt.url, { token: emulator.login(DEMO.unregistered).access_token });
      expect(err.message).toBe('register_device');
      expect(err.data).toMatchObject({ status: 403, action: 'register_device', code: 46217 });
    });

    it('retry_later when the platform is down', async () => {
      emulator.injectFault({ type: 'code', code: 50000, endpoint: 'E2', count: Infinity });
      const err = await refusedIo(rt.url, { token: emulator.login(DEMO.admin).access_token });
      expect(err.message).toBe('retry_later');
      expect(err.data).toMatchObject({ status: 503, action: 'retry_later', code: 50000 });
    });

    it('login (400) for a token in two places or a non-string auth.token', async () => {
      const { access_token } = emulator.login(DEMO.admin);
      const twice = await refusedIo(rt.url, { token: access_token, headers: { Authorization: `Bearer ${access_token}` } });
      expect(twice.data).toMatchObject({ status: 400, action: 'login' });
      const notString = await refusedIo(rt.url, { token: 12345 });
      expect(notString.data).toMatchObject({ status: 400, action: 'login' });
    });

    it('denied for a cookie sent by a page of another site', async () => {
      const web = emulator.issueWebToken(DEMO.admin);
      const err = await refusedIo(rt.url, { headers: { Cookie: `${COOKIE}=${web}`, Origin: 'https://evil.example' } });
      expect(err.message).toBe('denied');
    });
  });

  it('accepts handshake.auth.token, Authorization and the web cookie, and says session', async () => {
    const byAuth = await openIo(rt.url, { token: emulator.login(DEMO.admin).access_token });
    expect(byAuth.session).toEqual({ member_no: DEMO.admin, guid: DEMO.adminGuid });
    const byHeader = await openIo(rt.url, { headers: { Authorization: `Bearer ${emulator.login(DEMO.admin).access_token}` } });
    const byCookie = await openIo(rt.url, { headers: { Cookie: `${COOKIE}=${emulator.issueWebToken(DEMO.admin)}` } });
    expect(await byCookie.socket.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    expect(rt.registry.byMember(DEMO.admin)).toHaveLength(3);
    for (const { socket } of [byAuth, byHeader, byCookie]) socket.close();
  });

  it('refreshes in band with an acknowledgement; another member ends the connection (login)', async () => {
    const pair = emulator.login(DEMO.admin);
    const { socket } = await openIo(rt.url, { token: pair.access_token });
    const renewed = emulator.refresh(pair.refresh_token);
    expect(await socket.emitWithAck('auth:refresh', { token: renewed.access_token })).toEqual({ ok: true, member_no: DEMO.admin });
    expect(rt.registry.byTokenKey(tokenKey(renewed.access_token))).toHaveLength(1);
    expect(rt.registry.byTokenKey(tokenKey(pair.access_token))).toHaveLength(0);
    const refused = await socket.emitWithAck('auth:refresh', { token: pair.access_token });
    expect(refused).toMatchObject({ ok: false, problem: { action: 'relogin', code: 40000 } });
    const expired = nextIo(socket, 'auth:expired');
    const gone = ioDisconnected(socket);
    void socket.emitWithAck('auth:refresh', { token: emulator.login(OTHER).access_token }).catch(() => undefined);
    expect(await expired).toEqual({ action: 'login' });
    expect(await gone).toBe('io server disconnect');
  });

  // With an acknowledgement and no payload, the acknowledgement must not be
  // taken for the payload (the client would wait until its timeout).
  it('answers auth:refresh without a usable payload with 400 login in its acknowledgement', async () => {
    const { socket } = await openIo(rt.url, { token: emulator.login(DEMO.admin).access_token });
    const bad = { ok: false, problem: expect.objectContaining({ status: 400, action: 'login' }) };
    expect(await socket.timeout(2000).emitWithAck('auth:refresh')).toEqual(bad);
    expect(await socket.timeout(2000).emitWithAck('auth:refresh', null)).toEqual(bad);
    expect(await socket.timeout(2000).emitWithAck('auth:refresh', 'a string')).toEqual(bad);
    expect(await socket.timeout(2000).emitWithAck('auth:refresh', { token: 42 })).toEqual(bad);
    expect(await socket.timeout(2000).emitWithAck('ping', { any: 'payload' })).toEqual({ member_no: DEMO.admin });
    expect(socket.connected).toBe(true);
    socket.close();
  });

  it('re-verification ends a logged-out token (relogin 40000); an outage only after the grace (retry_later)', async () => {
    const { access_token } = emulator.login(DEMO.admin);
    const loggedOut = await openIo(rt.url, { token: access_token });
    const kept = await openIo(rt.url, { token: emulator.login(OTHER).access_token });
    emulator.logout(access_token);
    const expired = nextIo(loggedOut.socket, 'auth:expired');
    await rt.registry.reverifier.verifyAll();
    expect(await expired).toEqual({ action: 'relogin', code: 40000 });
    await ioDisconnected(loggedOut.socket);
    emulator.injectFault({ type: 'drop', endpoint: 'E2', count: Infinity });
    await rt.registry.reverifier.verifyAll();
    expect(kept.socket.connected).toBe(true);
    emulator.advanceClock(60_000);
    const later = nextIo(kept.socket, 'auth:expired');
    await rt.registry.reverifier.verifyAll();
    expect(await later).toEqual({ action: 'retry_later' });
    await ioDisconnected(kept.socket);
  });

  it("follows the client's session-end events: revokeUserToken (logout) and endMemberSessions (admin)", async () => {
    const t = emulator.login(DEMO.admin).access_token;
    const a = await openIo(rt.url, { token: t });
    const b = await openIo(rt.url, { token: emulator.login(OTHER).access_token });
    const logout = nextIo(a.socket, 'session:ended');
    await rt.client.revokeUserToken(t);
    expect(await logout).toEqual({ reason: 'logout' });
    const admin = nextIo(b.socket, 'session:ended');
    await rt.client.endMemberSessions(OTHER, 'admin');
    expect(await admin).toEqual({ reason: 'admin' });
    // A revoked token cannot come back in.
    expect((await refusedIo(rt.url, { token: t })).data).toMatchObject({ status: 401, action: 'relogin' });
  });

  it('session:ended logout / admin / shutdown precede the disconnect', async () => {
    const t = emulator.login(DEMO.admin).access_token;
    const a = await openIo(rt.url, { token: t });
    const b = await openIo(rt.url, { token: emulator.login(OTHER).access_token });
    const logout = nextIo(a.socket, 'session:ended');
    rt.registry.endToken(tokenKey(t), 'logout');
    expect(await logout).toEqual({ reason: 'logout' });
    const admin = nextIo(b.socket, 'session:ended');
    rt.registry.endMember(OTHER, 'admin');
    expect(await admin).toEqual({ reason: 'admin' });
    const shutdown = await startRealtimeServer(emulator);
    const c = await openIo(shutdown.url, { token: emulator.login(OTHER).access_token });
    const ended = nextIo(c.socket, 'session:ended');
    await shutdown.close();
    expect(await ended).toEqual({ reason: 'shutdown' });
    expect(rt.registry.size).toBe(0);
  });

  // A handshake whose authentication is in flight when shutdown begins must
  // not end up connected (then session:ended) after a platform call.
  describe('shutdown reaches the handshakes not yet authenticated', () => {
    let closing: RealtimeServer;
    beforeEach(async () => {
      emulator.clearRequests();
      closing = await startRealtimeServer(emulator);
    });
    afterEach(() => closing.close());

    it('refuses a handshake whose authentication is in flight with connect_error retry_later (503)', async () => {
      emulator.injectFault({ type: 'hold', endpoint: 'E2', count: 1 }); // unanswered until the shutdown is done
      const refused = refusedIo(closing.url, { token: emulator.login(DEMO.admin).access_token });
      await until(() => emulator.requests({ endpoint: 'E2' }).some((r) => r.status === null), 15_000, 'an E2 call in flight');
      closing.registry.closeAll('shutdown');
      const err = await refused;
      expect(err.message).toBe('retry_later');
      expect(err.data).toMatchObject({ status: 503, action: 'retry_later' });
    });

    it('refuses a handshake that comes after shutdown began, without a platform call', async () => {
      closing.registry.closeAll('shutdown');
      const err = await refusedIo(closing.url, { token: emulator.login(DEMO.admin).access_token });
      expect(err.data).toMatchObject({ status: 503, action: 'retry_later' });
      expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    });
  });

  // auth:refresh is limited: a flood of random tokens must not become a flood of E2 calls.
  it('refuses a refresh beyond the limit at once with 429 retry_later in its acknowledgement, and keeps the socket', async () => {
    const limited = await startRealtimeServer(emulator);
    const { socket } = await openIo(limited.url, { token: emulator.login(DEMO.admin).access_token });
    emulator.clearRequests();
    const answers = await Promise.all(Array.from({ length: 20 }, () => socket.timeout(5000).emitWithAck('auth:refresh', { token: randomBytes(24).toString('base64url') })));
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(1);
    expect(answers.filter((a) => a.problem?.status === 429)).toHaveLength(19);
    expect(answers).toContainEqual({ ok: false, problem: expect.objectContaining({ status: 429, action: 'retry_later' }) });
    expect(await socket.emitWithAck('ping')).toEqual({ member_no: DEMO.admin });
    socket.close();
    await limited.close();
  });
});
