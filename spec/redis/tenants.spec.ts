import { randomUUID } from 'node:crypto';
import { createClient } from 'redis';
import { PlatformClient } from '../../lib/index.js';
import type { SessionEndEvent } from '../../lib/index.js';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { createRedisFleet } from '../../lib/redis/index.js';
import type { RedisFleet } from '../../lib/redis/index.js';
import { DEMO, TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { useRedis } from '../support/redis-server.js';
import { recordingLogger } from '../support/recording-logger.js';
import { until } from '../support/until.js';

// Several games, and Live beside Sandbox, on one Redis under ONE prefix (the worst an app can
// choose): entries and events of one tenant are never read as another's.

interface Instance {
  client: PlatformClient;
  fleet: RedisFleet;
  ends: SessionEndEvent[];
}

const OTHER = { clientId: 'other-client', clientSecret: 'other-secret', gameId: 'other-game' } as const;
const PREFIX = 'pgp:shared:';
/** An emitted end: stamped with when it was made. */
const ended = (event: object): object => ({ ...event, at: expect.any(Number) });
/** Generous: these tests are about who hears what, not how fast. */
const BUDGET_MS = 20_000;

describe('tenants on one Redis with one prefix (real redis-server)', () => {
  const rx = useRedis();
  let live: Emulator;
  let sandbox: Emulator;
  const open: Instance[] = [];
  let raw: ReturnType<typeof createClient>;

  beforeAll(async () => {
    [live, sandbox] = await Promise.all([startEmulator({ seed: TEST_SEED }), startEmulator({ seed: TEST_SEED })]);
    raw = createClient({ url: rx.redis.url });
    // The server stops with the suite: its last word is not an error of the test.
    raw.on('error', () => {});
    await raw.connect();
  });
  afterAll(async () => {
    if (raw.isOpen) raw.destroy();
    await Promise.all([live.close(), sandbox.close()]);
  });
  afterEach(async () => {
    for (const { client, fleet } of open.splice(0)) {
      await client.close();
      await fleet.close();
    }
    await raw.flushAll();
  });

  async function instance(emulator: Emulator, overrides: Partial<Parameters<typeof configFor>[1]> = {}, rollingUpgrade?: boolean): Promise<Instance> {
    const fleet = createRedisFleet({ url: rx.redis.url, prefix: PREFIX, maxReconnectDelayMs: 100, logger: recordingLogger(), ...(rollingUpgrade === undefined ? {} : { rollingUpgrade }) });
    const client = new PlatformClient({
      ...configFor(emulator, { cache: { ttlMs: 30_000 }, timeoutMs: 3000, totalTimeoutMs: 6000, ...overrides }),
      store: fleet.store, revocations: fleet.revocations, storeTimeoutMs: 2000,
    });
    await fleet.ready();
    const made = { client, fleet, ends: [] as SessionEndEvent[] };
    client.on('session-end', (event) => made.ends.push(event));
    open.push(made);
    return made;
  }

  it('Live never accepts a Sandbox token that the Sandbox instance verified and cached', async () => {
    const onSandbox = await instance(sandbox);
    const onLive = await instance(live);
    const sandboxToken = sandbox.login(DEMO.admin, DEMO.gameId).access_token;
    expect(await onSandbox.client.verifyUserToken(sandboxToken)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(await raw.exists(`${PREFIX}${onSandbox.client.tenantScope}:E2:${tokenKey(sandboxToken)}`)).toBe(1);
    const liveCalls = live.requests({ endpoint: 'E2' }).length;
    expectPlatformError(await rejectionOf(() => onLive.client.verifyUserToken(sandboxToken)), 'invalid_token', 401);
    expect(live.requests({ endpoint: 'E2' }).length).toBe(liveCalls + 1); // asked, and refused
    expect(onLive.client.tenantScope).not.toBe(onSandbox.client.tenantScope);
  });

  it('game B never accepts game A\'s token through the shared cache', async () => {
    const a = await instance(live);
    const b = await instance(live, OTHER);
    const tokenOfA = live.login(DEMO.admin, DEMO.gameId).access_token;
    await a.client.verifyUserToken(tokenOfA);
    expectPlatformError(await rejectionOf(() => b.client.verifyUserToken(tokenOfA)), 'invalid_token', 401);
  });

  it('a member end and a revocation in game A leave game B\'s sessions alone', async () => {
    const [a1, a2, b1, b2] = [await instance(live), await instance(live), await instance(live, OTHER), await instance(live, OTHER)];
    const tokenOfA = live.login(DEMO.admin, DEMO.gameId).access_token;
    await a1.client.endMemberSessions(DEMO.admin, 'admin');
    await a1.client.revokeUserToken(tokenOfA);
    await until(() => a2.ends.length === 2, BUDGET_MS, 'game A\'s other instance to hear both');
    expect(a2.ends).toEqual([ended({ kind: 'member', memberNo: DEMO.admin, reason: 'admin' }), ended({ kind: 'token', tokenKey: tokenKey(tokenOfA), reason: 'logout' })]);
    // Order, not time: B hears its own game's end, published after A's; had A's crossed, B would have heard them first.
    await b2.client.endMemberSessions(DEMO.admin, 'admin');
    await until(() => b1.ends.length >= 1, BUDGET_MS, 'game B\'s other instance to hear B\'s end');
    expect(b1.ends).toEqual([ended({ kind: 'member', memberNo: DEMO.admin, reason: 'admin' })]);
    expect(b2.ends).toEqual([ended({ kind: 'member', memberNo: DEMO.admin, reason: 'admin' })]);
    // And A's instances did not hear B's.
    await a1.client.endMemberSessions(DEMO.player, 'admin');
    await until(() => a2.ends.length === 3, BUDGET_MS, 'A\'s next end');
    expect(a2.ends[2]).toEqual(ended({ kind: 'member', memberNo: DEMO.player, reason: 'admin' }));
  });

  it('a web token revoked in game A stays valid in game B once the rolling upgrade is off (a web token is the member\'s, on every game)', async () => {
    const a = await instance(live, {}, false);
    const b = await instance(live, OTHER, false);
    const web = live.issueWebToken(DEMO.admin);
    await a.client.revokeUserToken(web);
    expectPlatformError(await rejectionOf(() => a.client.verifyWebToken(web)), 'invalid_token', 401);
    expect((await b.client.verifyWebToken(web)).memberNo).toBe(DEMO.admin);
    expect(await raw.exists(`${PREFIX}revoked:${tokenKey(web)}`)).toBe(0);
  });

  it('Live\'s member end leaves Sandbox\'s sessions of the same game alone', async () => {
    const [l1, s1, s2] = [await instance(live), await instance(sandbox), await instance(sandbox)];
    await l1.client.endMemberSessions(DEMO.admin, 'admin');
    await s2.client.endMemberSessions(DEMO.player, 'admin');
    await until(() => s1.ends.length >= 1, BUDGET_MS, 'Sandbox\'s own end');
    expect(s1.ends).toEqual([ended({ kind: 'member', memberNo: DEMO.player, reason: 'admin' })]);
  });

  describe('a rolling upgrade: instances of the previous release beside this one', () => {
    /** What an instance of the previous release writes for a revocation: an unscoped marker, log entry and message. */
    async function previousReleaseRevokes(token: string): Promise<void> {
      const text = JSON.stringify({ kind: 'token', tokenKey: tokenKey(token), reason: 'logout', origin: randomUUID(), id: randomUUID() });
      await raw.set(`${PREFIX}revoked:${tokenKey(token)}`, '1', { PX: 60_000 });
      await raw.xAdd(`${PREFIX}session-end-log`, '*', { e: text });
      await raw.publish(`${PREFIX}session-end`, text);
    }

    it('a revocation written by the previous release is honoured here: the token is refused and its sessions end', async () => {
      const a = await instance(live);
      const late = live.login(DEMO.admin, DEMO.gameId).access_token;
      const token = live.login(DEMO.admin, DEMO.gameId).access_token;
      await a.client.verifyUserToken(token);
      await previousReleaseRevokes(token);
      await until(() => a.ends.length === 1, BUDGET_MS, 'the old-format session end');
      expect(a.ends).toEqual([{ kind: 'token', tokenKey: tokenKey(token), reason: 'logout' }]);
      expectPlatformError(await rejectionOf(() => a.client.verifyUserToken(token)), 'invalid_token', 401);
      // An instance starting later learns it from the old-format marker alone.
      await previousReleaseRevokes(late);
      const b = await instance(live);
      expectPlatformError(await rejectionOf(() => b.client.verifyUserToken(late)), 'invalid_token', 401);
    });

    it('a member end written by the previous release is honoured here', async () => {
      const a = await instance(live);
      const text = JSON.stringify({ kind: 'member', memberNo: DEMO.admin, reason: 'admin', origin: randomUUID(), id: randomUUID() });
      await raw.publish(`${PREFIX}session-end`, text);
      await until(() => a.ends.length === 1, BUDGET_MS, 'the old-format member end');
      expect(a.ends).toEqual([{ kind: 'member', memberNo: DEMO.admin, reason: 'admin' }]);
    });

    it('a revocation and a member end written here reach the previous release in its own format', async () => {
      const a = await instance(live);
      const heard: string[] = [];
      const old = raw.duplicate();
      old.on('error', () => {});
      await old.connect();
      try {
        await old.subscribe(`${PREFIX}session-end`, (message) => heard.push(message));
        const token = live.login(DEMO.admin, DEMO.gameId).access_token;
        await a.client.revokeUserToken(token);
        await a.client.endMemberSessions(DEMO.admin, 'admin');
        await until(() => heard.length === 2, BUDGET_MS, 'the previous release\'s channel');
        // The fields the previous release reads, as it reads them.
        expect(heard.map((m) => JSON.parse(m) as Record<string, unknown>)).toEqual([
          expect.objectContaining({ kind: 'token', tokenKey: tokenKey(token), reason: 'logout', origin: expect.any(String), id: expect.any(String) }),
          expect.objectContaining({ kind: 'member', memberNo: DEMO.admin, reason: 'admin', origin: expect.any(String), id: expect.any(String) }),
        ]);
        expect(await raw.exists(`${PREFIX}revoked:${tokenKey(token)}`)).toBe(1);
        expect(await raw.xLen(`${PREFIX}session-end-log`)).toBe(2);
      } finally {
        await old.close();
      }
    });

    it('with rollingUpgrade off, nothing unscoped is written or heard', async () => {
      const a = await instance(live, {}, false);
      await raw.publish(`${PREFIX}session-end`, JSON.stringify({ kind: 'member', memberNo: DEMO.admin, reason: 'admin', origin: randomUUID(), id: randomUUID() }));
      await a.client.endMemberSessions(DEMO.player, 'admin');
      expect(await raw.exists(`${PREFIX}session-end-log`)).toBe(0);
      expect(await raw.exists(`${PREFIX}{${a.client.tenantScope}}:session-end-log`)).toBe(1);
      // A scoped end from another instance arrives; the unscoped one published before it never does.
      const b = await instance(live, {}, false);
      await b.client.endMemberSessions(DEMO.player, 'admin');
      await until(() => a.ends.length === 2, BUDGET_MS, 'the scoped end');
      expect(a.ends).toEqual([ended({ kind: 'member', memberNo: DEMO.player, reason: 'admin' }), ended({ kind: 'member', memberNo: DEMO.player, reason: 'admin' })]);
    });
  });
});
