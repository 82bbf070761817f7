import diagnosticsChannel from 'node:diagnostics_channel';
import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import { createAuthenticator } from '../../lib/auth/index.js';
import { CHANNELS, type VerifyMessage } from '../../lib/diagnostics/channels.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import { DEMO, configFor, startTestEmulator } from '../support/client-harness.js';

// Handshakes without sockets: each player's token is verified through the authenticator, as an
// adapter's handshake does, then registered. What is counted is E2 calls, whatever the speed.
describe('a storm of handshakes costs one E2 call per token', () => {
  let emulator: Emulator;
  let client: PlatformClient;
  let registry: SessionRegistry;
  let authenticate: ReturnType<typeof createAuthenticator>;
  const MEMBERS = [DEMO.admin, DEMO.player, '20005061987'];
  const e2 = (): number => emulator.requests({ endpoint: 'E2' }).length;

  beforeAll(async () => {
    emulator = await startTestEmulator({ maxLogEntries: 20_000 });
    client = new PlatformClient(configFor(emulator, { maxConcurrentCalls: 64, maxQueuedCalls: 10_000 }));
    await client.ready();
    authenticate = createAuthenticator({ client });
  });
  beforeEach(() => {
    // The default interval (5 minutes): what production runs.
    registry = new SessionRegistry({ authenticate, events: client });
  });
  afterEach(() => registry.closeAll('shutdown'));
  afterAll(async () => {
    await client.close();
    await emulator.close();
  });

  const tokens = (count: number): string[] => Array.from({ length: count }, (_, i) => emulator.login(MEMBERS[i % MEMBERS.length]!, DEMO.gameId).access_token);
  const connect = (all: string[]): Promise<unknown> => Promise.all(all.map(async (token) => {
    const since = registry.now();
    const user = await authenticate.token(token);
    registry.add({ transport: 'ws', user, token, since, close: () => undefined });
  }));

  it('1,000 players connecting cost 1,000 E2 calls', async () => {
    const players = tokens(1000);
    emulator.clearRequests();
    await connect(players);
    expect(registry.tokenCount).toBe(1000);
    expect(e2()).toBe(1000);
  });

  it('3,000 players reconnecting at once after an admin disconnect cost exactly 3,000 E2 calls', async () => {
    const players = tokens(3000);
    // Connected earlier (their handshakes are not what this counts).
    for (const token of players) registry.add({ transport: 'ws', user: { memberNo: DEMO.admin, guid: null }, token, close: () => undefined });
    expect(registry.closeAll('admin')).toBe(3000);
    emulator.clearRequests();
    await connect(players);
    expect(registry.size).toBe(3000);
    expect(e2()).toBe(3000);
    expect(registry.reverifier.inFlight).toBe(0);
  }, 30_000);

  it('verifies no token again sooner than half an interval after its last verification began', async () => {
    const INTERVAL = 400;
    registry.closeAll('shutdown');
    registry = new SessionRegistry({ authenticate, events: client, reverifyIntervalMs: INTERVAL });
    const starts = new Map<string, number[]>();
    const onStart = (message: VerifyMessage): void => {
      const at = starts.get(message.tokenFingerprint) ?? [];
      at.push(performance.now());
      starts.set(message.tokenFingerprint, at);
    };
    const noop = (): void => undefined;
    const handlers = { start: onStart, end: noop, asyncStart: noop, asyncEnd: noop, error: noop };
    const channel = diagnosticsChannel.tracingChannel<VerifyMessage, VerifyMessage>(CHANNELS.verify);
    channel.subscribe(handlers);
    try {
      await connect(tokens(20));
      // Two whole rounds after the handshakes.
      for (let rounds = 0; rounds < 3;) {
        const [round] = (await once(registry.reverifier, 'pass')) as [{ verified: number }];
        if (round.verified === 20) rounds += 1;
      }
    } finally {
      channel.unsubscribe(handlers);
    }
    expect(starts.size).toBe(20);
    for (const at of starts.values()) {
      expect(at.length).toBeGreaterThanOrEqual(3);
      // Timers never fire early, so a lower bound holds however busy the machine is; libuv times
      // them on its loop clock, cached in whole ms and read before the timer was set, so against
      // performance.now() one may seem to fire a few ms early.
      for (let i = 1; i < at.length; i += 1) expect(at[i]! - at[i - 1]!).toBeGreaterThanOrEqual(INTERVAL / 2 - 5);
    }
  });
});
