import { createClient } from 'redis';
import { createAuthenticator } from '../../lib/auth/index.js';
import { SessionRegistry } from '../../lib/realtime/index.js';
import type { ConnectionEnding } from '../../lib/realtime/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED } from '../support/client-harness.js';
import { useRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';
import { cuttableLink } from './cuttable-link.js';
import type { CuttableLink } from './cuttable-link.js';
import { startInstance } from './fleet-instances.js';
import type { Instance } from './fleet-instances.js';

// The test's patience, not a promise: how soon is a figure for a bench.
const CATCH_UP_BOUND_MS = 15_000;

describe('nothing lost after a Redis flap: logouts and member ends reach every instance (real redis-server)', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const rx = useRedis();
  const open: Array<{ close(): Promise<void> | void }> = [];
  let prefixCount = 0;
  const login = (memberNo: string): string => fx.emulator.login(memberNo, DEMO.gameId).access_token;

  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });

  async function instance(url: string, prefix: string): Promise<Instance> {
    const made = await startInstance(fx.emulator, url, prefix);
    open.push(made);
    return made;
  }
  async function link(): Promise<CuttableLink> {
    const made = await cuttableLink(rx.redis.url);
    open.push(made);
    return made;
  }

  /** B's live connections, as its realtime adapters would hold them: each records how it ended. */
  function registryOf(b: Instance): { registry: SessionRegistry; connect(token: string): Promise<{ ended: ConnectionEnding | undefined }> } {
    const registry = new SessionRegistry({ authenticate: createAuthenticator(b.client), events: b.client, reverifyIntervalMs: 0 });
    open.push({ close: () => void registry.closeAll('shutdown') });
    return {
      registry,
      async connect(token: string) {
        const socket: { ended: ConnectionEnding | undefined } = { ended: undefined };
        const user = await b.client.verifyUserToken(token);
        registry.add({ transport: 'ws', user, token, close: (ending) => void (socket.ended = ending) });
        return socket;
      },
    };
  }

  it('B cannot reach Redis while A logs T out and ends member M: B ends both sockets once it reaches Redis again', async () => {
    prefixCount += 1;
    const prefix = `pgp-flap-${prefixCount}:`;
    const bLink = await link();
    const a = await instance(rx.redis.url, prefix);
    const b = await instance(bLink.url, prefix);
    const { connect } = registryOf(b);
    const token = login(DEMO.admin);
    const tSocket = await connect(token);
    const mSocket = await connect(login(DEMO.noGuid));

    bLink.cut();
    await until(() => b.fleet.health().state !== 'ready', 15_000, 'B to see Redis gone');
    await a.client.revokeUserToken(token);
    await a.client.endMemberSessions(DEMO.noGuid, 'admin');
    expect([tSocket.ended, mSocket.ended]).toEqual([undefined, undefined]); // B heard nothing

    bLink.heal();
    await until(() => tSocket.ended !== undefined && mSocket.ended !== undefined, CATCH_UP_BOUND_MS, 'B to end both sockets');
    expect(tSocket.ended).toEqual({ kind: 'ended', reason: 'logout' });
    expect(mSocket.ended).toEqual({ kind: 'ended', reason: 'admin' });
    expect(b.fleet.revocations.stats.caughtUp).toBe(2);
    // Each event once, though the log and the channel may both carry it.
    await b.fleet.revocations.caughtUp();
    expect(b.ends).toHaveLength(2);
  });

  it('B\'s subscription alone is dropped (CLIENT KILL TYPE pubsub) while A logs T out: B ends T\'s socket once it is back', async () => {
    prefixCount += 1;
    const prefix = `pgp-pubsub-${prefixCount}:`;
    const a = await instance(rx.redis.url, prefix);
    const b = await instance(rx.redis.url, prefix);
    const { connect } = registryOf(b);
    const token = login(DEMO.admin);
    const socket = await connect(token);
    const raw = createClient({ url: rx.redis.url });
    await raw.connect();
    open.push({ close: () => raw.close() });
    // Junk in the log (malformed, oversized, wrong shape or field) is skipped, never a crash.
    const log = `${prefix}session-end-log`;
    for (const junk of ['not json', 'x'.repeat(100_000), JSON.stringify({ kind: 'token', tokenKey: 'short', reason: 'logout' }), JSON.stringify({ kind: 'member', memberNo: '1', reason: 'nope' })]) {
      await raw.sendCommand(['XADD', log, '*', 'e', junk]);
    }
    await raw.sendCommand(['XADD', log, '*', 'other', JSON.stringify({ kind: 'member', memberNo: DEMO.noGuid, reason: 'admin' })]);
    await raw.sendCommand(['CLIENT', 'KILL', 'TYPE', 'pubsub']);
    // A's logout lands while B resubscribes (or just after: then the channel brings it; either way once).
    await a.client.revokeUserToken(token);
    await until(() => socket.ended !== undefined, CATCH_UP_BOUND_MS, 'B to end the socket');
    expect(socket.ended).toEqual({ kind: 'ended', reason: 'logout' });
    await until(() => b.fleet.revocations.stats.catchUps >= 1, CATCH_UP_BOUND_MS, 'B to read the log after resubscribing');
    expect(b.ends).toEqual([{ kind: 'token', tokenKey: expect.any(String), reason: 'logout', at: expect.any(Number) }]);
  });

  it('A cannot reach Redis when an admin ends member M there (202): the end is held and reaches B once A reaches Redis', async () => {
    prefixCount += 1;
    const prefix = `pgp-queue-${prefixCount}:`;
    const aLink = await link();
    const a = await instance(aLink.url, prefix);
    const b = await instance(rx.redis.url, prefix);
    const { connect } = registryOf(b);
    const mSocket = await connect(login(DEMO.noGuid));
    const revoked = login(DEMO.admin);
    const tSocket = await connect(revoked);

    aLink.cut();
    await until(() => a.fleet.health().state !== 'ready', 15_000, 'A to see Redis gone');
    await a.client.endMemberSessions(DEMO.noGuid, 'admin');
    await a.client.revokeUserToken(revoked);
    expect(a.client.storeHealth).toMatchObject({ unsentMemberEnds: 1, unsyncedRevocations: 1 });
    expect([mSocket.ended, tSocket.ended]).toEqual([undefined, undefined]);

    aLink.heal();
    await until(() => mSocket.ended !== undefined && tSocket.ended !== undefined, CATCH_UP_BOUND_MS, 'B to end both sockets');
    expect(mSocket.ended).toEqual({ kind: 'ended', reason: 'admin' });
    expect(tSocket.ended).toEqual({ kind: 'ended', reason: 'logout' });
    await until(() => a.client.storeHealth.unsentMemberEnds === 0 && a.client.storeHealth.unsyncedRevocations === 0, 15_000, 'A to have sent everything');
  });
});
