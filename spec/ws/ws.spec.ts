import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import type { Emulator } from '../../lib/emulator/index.js';
import { MAX_QUEUED_MESSAGES } from '../../lib/ws/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { openWs, probeWs, refusedWs, startRealtimeServer, type RealtimeServer, type WsProbe } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

const OTHER = '20005061987';

describe('ws adapter', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { reverifyGraceMs: 60_000 });
  });
  const opened = (probe: WsProbe): Promise<unknown> => new Promise((resolve) => probe.ws.once('open', resolve));
  // Resolves once the emulator holds an E2 call it has not answered yet.
  const e2InFlight = (): Promise<void> => until(() => emulator.requests({ endpoint: 'E2' }).some((r) => r.status === null), 15_000, 'an E2 call in flight');
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });
  beforeEach(() => emulator.clearFaults());
  const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

  describe('refuses the upgrade before it is established', () => {
    it('answers 401 relogin with the problem body and a challenge for a token the platform refuses (40000)', async () => {
      const { access_token } = emulator.login(DEMO.admin);
      emulator.logout(access_token);
      const refused = await refusedWs(rt.wsUrl, bearer(access_token));
      expect(refused.status).toBe(401);
      expect(refused.body).toMatchObject({ status: 401, action: 'relogin', code: 40000 });
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.headers['www-authenticate']).toMatch(/^Bearer realm="[^"]+", error="invalid_token"/);
    });

    it('answers 403 register_device for 46217', async () => {
      const refused = await refusedWs(rt.wsUrl, bearer(emulator.login(DEMO.unregistered).access_token));
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ action: 'register_device', code: 46217 });
    });

    it('answers 503 retry_later with Retry-After when the platform is down', async () => {
      emulator.injectFault({ type: 'http5xx', endpoint: 'E2', count: Infinity });
      const refused = await refusedWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      expect(refused.status).toBe(503);
      expect(refused.body).toMatchObject({ action: 'retry_later' });
      expect(refused.headers['retry-after']).toBeDefined();
      expect(refused.headers['www-authenticate']).toBeUndefined();
    });

    it('answers 400 login for a malformed header, and never takes a token from the URL', async () => {
      const malformed = await refusedWs(rt.wsUrl, { Authorization: 'Bearer a b' });
      expect(malformed).toMatchObject({ status: 400, body: { action: 'login' } });
      const { access_token } = emulator.login(DEMO.admin);
      const inUrl = await refusedWs(`${rt.wsUrl}?access_token=${access_token}`);
      expect(inUrl).toMatchObject({ status: 400, body: { action: 'login' } });
      expect(inUrl.headers['www-authenticate']).toMatch(/error="invalid_request"/);
    });

    it('answers 401 relogin for a malformed token without calling the platform', async () => {
      emulator.clearRequests();
      const refused = await refusedWs(rt.wsUrl, bearer('bad"token'));
      expect(refused).toMatchObject({ status: 401, body: { action: 'relogin' } });
      expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    });
  });

  describe('first-message mode', () => {
    it('authenticates {"type":"auth","token"} and says session', async () => {
      const probe = probeWs(new WebSocket(rt.wsUrl));
      await new Promise((resolve) => probe.ws.once('open', resolve));
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      expect(await probe.next('session')).toEqual({ type: 'session', member_no: DEMO.admin, guid: DEMO.adminGuid });
      probe.ws.close();
      await probe.closed;
    });

    it('closes with 4401 login when no auth message comes in time', async () => {
      // The one case of a first-message timeout: its own short one.
      const impatient = await startRealtimeServer(emulator, { firstMessageTimeoutMs: 100 });
      try {
        const probe = probeWs(new WebSocket(impatient.wsUrl));
        expect(await probe.closed).toEqual({ code: 4401, reason: 'login' });
        expect(probe.messages).toEqual([{ type: 'auth:failed', problem: expect.objectContaining({ action: 'login' }) }]);
      } finally {
        await impatient.close();
      }
    });

    it('closes with 4401 relogin when the first message carries a refused token', async () => {
      const probe = probeWs(new WebSocket(rt.wsUrl));
      await new Promise((resolve) => probe.ws.once('open', resolve));
      const { access_token } = emulator.login(DEMO.admin);
      emulator.logout(access_token);
      probe.ws.send(JSON.stringify({ type: 'auth', token: access_token }));
      expect(await probe.closed).toEqual({ code: 4401, reason: 'relogin' });
    });

    // A ping sent right behind the auth message arrives before the platform
    // has answered: it is queued, not dropped.
    it('handles the messages sent while its authentication is in progress, in order, once the session is established', async () => {
      const probe = probeWs(new WebSocket(rt.wsUrl));
      await opened(probe);
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      probe.ws.send(JSON.stringify({ type: 'ping' }));
      probe.ws.send(JSON.stringify({ type: 'ping' }));
      await probe.next('session');
      // Answered after everything sent before it: a marker that the queue was played.
      probe.ws.send(JSON.stringify({ type: 'auth:refresh' }));
      await probe.next('auth:refresh-failed');
      expect(probe.messages.map((m) => m.type)).toEqual(['session', 'pong', 'pong', 'auth:refresh-failed']);
      expect(rt.wsAdapter.pending).toBe(0);
      probe.ws.close();
      await probe.closed;
    });

    it('discards the queued messages when the authentication fails', async () => {
      const probe = probeWs(new WebSocket(rt.wsUrl));
      await opened(probe);
      const { access_token } = emulator.login(DEMO.admin);
      emulator.logout(access_token);
      probe.ws.send(JSON.stringify({ type: 'auth', token: access_token }));
      probe.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await probe.closed).toEqual({ code: 4401, reason: 'relogin' });
      expect(probe.messages.map((m) => m.type)).toEqual(['auth:failed']);
      expect(rt.wsAdapter.pending).toBe(0);
    });

    it(`closes 1008 too_many_messages when more than ${MAX_QUEUED_MESSAGES} messages wait for the authentication`, async () => {
      const probe = probeWs(new WebSocket(rt.wsUrl));
      await opened(probe);
      // The platform holds its answer until the messages have all arrived.
      emulator.injectFault({ type: 'hold', endpoint: 'E2', count: 1 });
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      for (let i = 0; i <= MAX_QUEUED_MESSAGES; i += 1) probe.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await probe.closed).toEqual({ code: 1008, reason: 'too_many_messages' });
      expect(probe.messages).toEqual([]);
      expect(rt.wsAdapter.pending).toBe(0);
      emulator.releaseHeld();
    });
  });

  describe('while connected', () => {
    it('says session, answers ping with the member, and refreshes in band', async () => {
      const pair = emulator.login(DEMO.admin);
      const probe = await openWs(rt.wsUrl, bearer(pair.access_token));
      expect(probe.messages[0]).toEqual({ type: 'session', member_no: DEMO.admin, guid: DEMO.adminGuid });
      probe.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await probe.next('pong')).toEqual({ type: 'pong', member_no: DEMO.admin });
      const renewed = emulator.refresh(pair.refresh_token);
      probe.ws.send(JSON.stringify({ type: 'auth:refresh', token: renewed.access_token }));
      expect(await probe.next('auth:refreshed')).toEqual({ type: 'auth:refreshed', member_no: DEMO.admin });
      // The old token no longer verifies, the connection lives on the new one.
      expect(await rt.registry.reverifier.verifyAll()).toMatchObject({ verified: 1, ended: 0 });
      expect(probe.ws.readyState).toBe(WebSocket.OPEN);
      probe.ws.close();
      await probe.closed;
    });

    it("ends the connection (4401 login) when the refresh carries another member's token", async () => {
      const probe = await openWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      probe.ws.send(JSON.stringify({ type: 'auth:refresh', token: emulator.login(OTHER).access_token }));
      expect(await probe.closed).toEqual({ code: 4401, reason: 'login' });
      expect(await probe.next('auth:expired')).toEqual({ type: 'auth:expired', action: 'login' });
    });

    it('answers a refused refresh with the problem and keeps the connection', async () => {
      const probe = await openWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      probe.ws.send(JSON.stringify({ type: 'auth:refresh', token: 'bad"token' }));
      expect(await probe.next('auth:refresh-failed')).toMatchObject({ problem: { action: 'relogin' } });
      expect(probe.ws.readyState).toBe(WebSocket.OPEN);
      probe.ws.close();
      await probe.closed;
    });
  });

  describe('re-verification', () => {
    it('ends a logged-out token with auth:expired relogin 40000 and 4401', async () => {
      const { access_token } = emulator.login(DEMO.admin);
      const probe = await openWs(rt.wsUrl, bearer(access_token));
      emulator.logout(access_token);
      await rt.registry.reverifier.verifyAll();
      expect(await probe.closed).toEqual({ code: 4401, reason: 'relogin' });
      expect(await probe.next('auth:expired')).toEqual({ type: 'auth:expired', action: 'relogin', code: 40000 });
      expect(rt.registry.size).toBe(0);
    });

    it('keeps the connection through an outage, and closes it (1013 retry_later) once the grace has passed', async () => {
      const probe = await openWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      emulator.injectFault({ type: 'http5xx', endpoint: 'E2', count: Infinity });
      expect(await rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
      emulator.advanceClock(30_000);
      expect(await rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
      expect(probe.ws.readyState).toBe(WebSocket.OPEN);
      emulator.advanceClock(30_001);
      expect(await rt.registry.reverifier.verifyAll()).toMatchObject({ ended: 1 });
      expect(await probe.closed).toEqual({ code: 1013, reason: 'retry_later' });
      expect(await probe.next('auth:expired')).toEqual({ type: 'auth:expired', action: 'retry_later' });
    });

    it('restarts the grace after a success', async () => {
      const probe = await openWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      emulator.advanceClock(59_000);
      await rt.registry.reverifier.verifyAll();
      emulator.injectFault({ type: 'code', code: 50000, endpoint: 'E2', count: Infinity });
      emulator.advanceClock(59_000);
      expect(await rt.registry.reverifier.verifyAll()).toMatchObject({ failures: 1, ended: 0 });
      emulator.clearFaults();
      probe.ws.close();
      await probe.closed;
    });
  });

  describe('ending connections on purpose', () => {
    it('ends by member (admin, 4403), by token (logout, 4401) and on shutdown (1001)', async () => {
      const a = emulator.login(DEMO.admin).access_token;
      const first = await openWs(rt.wsUrl, bearer(a));
      const second = await openWs(rt.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      const other = await openWs(rt.wsUrl, bearer(emulator.login(OTHER).access_token));
      expect(rt.registry.byMember(DEMO.admin)).toHaveLength(2);
      const { tokenKey } = await import('../../lib/hashing/fingerprint.js');
      expect(rt.registry.endToken(tokenKey(a), 'logout')).toBe(1);
      expect(await first.closed).toEqual({ code: 4401, reason: 'logout' });
      expect(first.messages.at(-1)).toEqual({ type: 'session:ended', reason: 'logout' });
      expect(rt.registry.endMember(DEMO.admin, 'admin')).toBe(1);
      expect(await second.closed).toEqual({ code: 4403, reason: 'admin' });
      expect(rt.registry.byMember(DEMO.admin)).toHaveLength(0);
      expect(rt.registry.size).toBe(1);
      const shutdown = await startRealtimeServer(emulator);
      const last = await openWs(shutdown.wsUrl, bearer(emulator.login(OTHER).access_token));
      await shutdown.close();
      expect(await last.closed).toEqual({ code: 1001, reason: 'shutdown' });
      expect(last.messages.at(-1)).toEqual({ type: 'session:ended', reason: 'shutdown' });
      other.ws.close();
      await other.closed;
    });
  });

  // Shutdown must reach a socket before it is live too: one still waiting for
  // its first message would otherwise stay open until its timeout (then be
  // told 4401 login), and one whose authentication is in flight would complete
  // its upgrade only to be closed without session:ended.
  describe('shutdown reaches the sockets not yet authenticated', () => {
    let closing: RealtimeServer;
    beforeEach(async () => {
      emulator.clearRequests();
      closing = await startRealtimeServer(emulator);
    });
    afterEach(() => closing.close());

    it('ends a socket still waiting for its first message: session:ended shutdown, then 1001 shutdown, at once', async () => {
      const probe = probeWs(new WebSocket(closing.wsUrl));
      await opened(probe);
      const tracked = closing.wsAdapter.pending;
      closing.registry.closeAll('shutdown');
      expect(await probe.closed).toEqual({ code: 1001, reason: 'shutdown' });
      expect(probe.messages).toEqual([{ type: 'session:ended', reason: 'shutdown' }]);
      expect([tracked, closing.wsAdapter.pending]).toEqual([1, 0]);
    });

    it("the adapter's close() does the same", async () => {
      const probe = probeWs(new WebSocket(closing.wsUrl));
      await opened(probe);
      closing.wsAdapter.close();
      expect(await probe.closed).toEqual({ code: 1001, reason: 'shutdown' });
      expect(probe.messages).toEqual([{ type: 'session:ended', reason: 'shutdown' }]);
    });

    it('ends a first-message socket whose authentication is in flight: session:ended shutdown, then 1001 shutdown', async () => {
      const probe = probeWs(new WebSocket(closing.wsUrl));
      await opened(probe);
      emulator.injectFault({ type: 'hold', endpoint: 'E2', count: 1 }); // unanswered until the shutdown is done
      probe.ws.send(JSON.stringify({ type: 'auth', token: emulator.login(DEMO.admin).access_token }));
      await e2InFlight();
      closing.registry.closeAll('shutdown');
      expect(await probe.closed).toEqual({ code: 1001, reason: 'shutdown' });
      expect(probe.messages).toEqual([{ type: 'session:ended', reason: 'shutdown' }]);
      expect(closing.wsAdapter.pending).toBe(0);
    });

    it('answers an upgrade whose header authentication is in flight with 503 retry_later and Retry-After', async () => {
      emulator.injectFault({ type: 'hold', endpoint: 'E2', count: 1 }); // unanswered until the shutdown is done
      const refused = refusedWs(closing.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      await e2InFlight();
      closing.registry.closeAll('shutdown');
      const { status, body, headers } = await refused;
      expect({ status, body }).toMatchObject({ status: 503, body: { status: 503, action: 'retry_later' } });
      expect(headers['retry-after']).toBeDefined();
      expect(headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(closing.wsAdapter.pending).toBe(0);
    });

    it('refuses upgrades that come after shutdown began (503 retry_later), without a platform call', async () => {
      closing.registry.closeAll('shutdown');
      const withHeader = await refusedWs(closing.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      const without = await refusedWs(closing.wsUrl);
      expect([withHeader.status, withHeader.body.action, without.status, without.body.action]).toEqual([503, 'retry_later', 503, 'retry_later']);
      expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    });
  });

  // Without a limit, 3,000 auth:refresh messages with random tokens on one
  // connection are about a thousand E2 calls in 2 s, and every other player waits.
  describe('auth:refresh rate limit', () => {
    let limited: RealtimeServer;
    beforeAll(async () => {
      limited = await startRealtimeServer(emulator);
    });
    afterAll(() => limited.close());

    it('a flood of 1,000 refreshes on one connection makes at most a handful of E2 calls; the rest get 429 retry_later at once', async () => {
      const flooder = await openWs(limited.wsUrl, bearer(emulator.login(DEMO.admin).access_token));
      emulator.clearRequests();
      const failed = (): Array<Record<string, unknown>> => flooder.messages.filter((m) => m.type === 'auth:refresh-failed');
      for (let i = 0; i < 1000; i += 1) flooder.ws.send(JSON.stringify({ type: 'auth:refresh', token: randomBytes(24).toString('base64url') }));
      // Another player is served meanwhile.
      const other = await openWs(limited.wsUrl, bearer(emulator.login(OTHER).access_token));
      other.ws.send(JSON.stringify({ type: 'ping' }));
      expect(await other.next('pong')).toEqual({ type: 'pong', member_no: OTHER });
      await until(() => failed().length === 1000, 15_000, '1,000 answers');
      const e2 = emulator.requests({ endpoint: 'E2' }).length;
      expect(e2).toBeGreaterThanOrEqual(2); // the other player's and at least one refresh
      expect(e2).toBeLessThanOrEqual(6);
      const limitedAnswers = failed().filter((m) => (m.problem as Record<string, unknown>).status === 429);
      expect(limitedAnswers.length).toBeGreaterThanOrEqual(995);
      expect(limitedAnswers[0]).toEqual({ type: 'auth:refresh-failed', problem: expect.objectContaining({ status: 429, action: 'retry_later' }) });
      flooder.ws.send(JSON.stringify({ type: 'ping' }));
      await until(() => flooder.messages.some((m) => m.type === 'pong'), 15_000, 'the pong');
      expect(flooder.ws.readyState).toBe(WebSocket.OPEN);
      for (const probe of [flooder, other]) probe.ws.close();
      await Promise.all([flooder.closed, other.closed]);
    });
  });
});
