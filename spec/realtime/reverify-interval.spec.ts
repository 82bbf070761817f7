import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import { CHANNELS, type ConnectionMessage } from '../../lib/diagnostics/channels.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, startTestEmulator } from '../support/client-harness.js';
import { openIo, openWs, startRealtimeServer, type RealtimeServer } from '../support/realtime-harness.js';
import { until } from '../support/until.js';

const MEMBERS = [DEMO.admin, '20005061987', DEMO.noGuid, DEMO.admin, '20005061987'];

describe('re-verification on the interval', () => {
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { reverifyIntervalMs: 250 });
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });

  it('verifies 50 sockets sharing 5 tokens with 5 platform calls per interval, spread over it', async () => {
    const tokens = MEMBERS.map((member) => emulator.login(member).access_token);
    const ws = await Promise.all(Array.from({ length: 25 }, (_, i) => openWs(rt.wsUrl, { Authorization: `Bearer ${tokens[i % 5]!}` })));
    const io = await Promise.all(Array.from({ length: 25 }, (_, i) => openIo(rt.url, { token: tokens[i % 5]! })));
    expect(rt.registry.size).toBe(50);
    expect(rt.registry.tokenCount).toBe(5);
    // A round counts the tokens queued when it began: on a busy machine the
    // first may begin before the last socket opened. Wait for a whole one.
    for (;;) {
      const [round] = (await once(rt.registry.reverifier, 'pass')) as [{ verified: number }];
      if (round.verified === 5) break;
    }
    emulator.clearRequests();
    const [second] = (await once(rt.registry.reverifier, 'pass')) as [unknown];
    expect(second).toEqual({ verified: 5, ended: 0, failures: 0 });
    const calls = emulator.requests({ endpoint: 'E2' });
    expect(calls).toHaveLength(5);
    // Spread: 5 calls over 250 ms start about 50 ms apart, not in one burst.
    const times = calls.map((call) => call.time).sort((a, b) => a - b);
    expect(times.at(-1)! - times[0]!).toBeGreaterThanOrEqual(150);
    for (const { ws: socket } of ws) socket.close();
    for (const { socket } of io) socket.close();
  });

  it('forgets every connection and token once they close, and publishes each end', async () => {
    const ends: ConnectionMessage[] = [];
    let empty!: () => void;
    const drained = new Promise<void>((resolve) => (empty = resolve));
    const listener = (message: unknown): void => {
      ends.push(message as ConnectionMessage);
      if (rt.registry.size === 0) empty();
    };
    const probe = await openWs(rt.wsUrl, { Authorization: `Bearer ${emulator.login(DEMO.admin).access_token}` });
    diagnosticsChannel.subscribe(CHANNELS.connection, listener);
    probe.ws.close();
    await drained;
    diagnosticsChannel.unsubscribe(CHANNELS.connection, listener);
    expect(ends).toContainEqual({ transport: 'ws', memberNo: DEMO.admin, reason: 'closed', durationMs: expect.any(Number) });
    expect(rt.registry.size).toBe(0);
    expect(rt.registry.tokenCount).toBe(0);
    expect(rt.registry.byMember(DEMO.admin)).toEqual([]);
  });
});

describe('a refused token on the interval', () => {
  const INTERVAL = 1500;
  let emulator: Emulator;
  let rt: RealtimeServer;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    rt = await startRealtimeServer(emulator, { reverifyIntervalMs: INTERVAL });
  });
  afterAll(async () => {
    await rt.close();
    await emulator.close();
  });

  // The worst moment to be refused: the token connects just after the
  // verifications of nine others began, and is logged out at once.
  it('ends its socket within one round (before any other token is verified twice), even when it connects just after the others were verified', async () => {
    const others = await Promise.all(Array.from({ length: 9 }, (_, i) => openWs(rt.wsUrl, { Authorization: `Bearer ${emulator.login(i % 2 === 0 ? DEMO.admin : '20005061987').access_token}` })));
    await once(rt.registry.reverifier, 'pass');
    const seen = emulator.requests({ endpoint: 'E2' }).length;
    await until(() => emulator.requests({ endpoint: 'E2' }).length > seen, 15_000, 'the next verification to begin');
    const { access_token } = emulator.login(DEMO.noGuid);
    const late = await openWs(rt.wsUrl, { Authorization: `Bearer ${access_token}` });
    emulator.logout(access_token);
    const joined = emulator.requests({ endpoint: 'E2' }).length;
    expect(await late.closed).toEqual({ code: 4401, reason: 'relogin' });
    // One interval is one round: up to the late token's refusal, each of the nine others verified
    // at most once, and the late one. Counted up to the refusal, not to the close the test sees:
    // the queue goes on meanwhile, and how far depends on how busy the machine is.
    const since = emulator.requests({ endpoint: 'E2' }).slice(joined);
    const refusal = since.findIndex((call) => call.code !== undefined && call.code !== 0);
    expect(refusal).toBeGreaterThanOrEqual(0);
    expect(refusal + 1).toBeLessThanOrEqual(9 + 1);
    for (const { ws } of others) ws.close();
    await Promise.all(others.map((probe) => probe.closed));
  }, 15_000);
});
