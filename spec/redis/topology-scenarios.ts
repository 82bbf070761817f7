import { writeFileSync } from 'node:fs';
import { createClient } from 'redis';
import type { RedisTarget } from '../../lib/redis/index.js';
import type { SessionEndEvent } from '../../lib/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED } from '../support/client-harness.js';
import { createRedisFleet } from '../../lib/redis/index.js';
import { startAppProcess } from '../support/app-process.js';
import { recordingLogger } from '../support/recording-logger.js';
import { cuttableLink } from './cuttable-link.js';
import { until } from '../support/until.js';
import { startInstance } from './fleet-instances.js';
import type { Instance } from './fleet-instances.js';

/** A Redis deployment the scenarios run on, started once per spec file. */
export interface TopologyUnderTest {
  /** What `createRedisFleet` is given (besides the prefix). */
  target: RedisTarget;
  /** Ports of the data nodes (primaries and replicas) now running. */
  dataPorts(): number[];
  /** A URL for an admin connection to the data node at `port` (with its credentials). */
  adminUrl(port: number): string;
  /** The length of the stream at `key` (0 when absent), read through the topology. */
  streamLength(key: string): Promise<number>;
  /** One seed (a Cluster node, a sentinel) as `redis://host:port`, and the target naming only `seed` instead. */
  seedUrl: string;
  targetWithSeed(seed: string): RedisTarget;
  /** The example app's variables for this topology. */
  appEnv: Record<string, string>;
  /** A node-redis client of this topology, built as an application would (not connected). */
  appClient(): NonNullable<RedisTarget['client']> & { destroy(): unknown };
  /**
   * Starts a failover of the primary serving `key`; resolves once the old
   * primary is out of service (`begun`, the failover's moment zero), and then
   * (`promoted`) once a replica serves in its place.
   */
  failover(key: string): Promise<{ promoted: Promise<void> }>;
  stop(): Promise<void>;
}

/** Figures measured by the scenarios (reported, not asserted: a busy machine stretches them). */
type Figures = Record<string, number | string | number[]>;

/** The ACL user the instances of the log scenario connect as (created on every data node). */
const FLEET_USER = 'pgp-fleet';
const FLEET_PASSWORD = 'fleet-secret-5';

/** Everything must happen within this (a busy machine's ceiling, far above what a quiet one needs). */
const BUDGET_MS = 30_000;
/** Each test's own ceiling: its waits, plus starting three instances. */
const TEST_MS = 60_000;

const tokenEnds = (i: Instance): number => i.ends.filter((e: SessionEndEvent) => e.kind === 'token').length;
const endedToken = (i: Instance, token: string): boolean => i.ends.some((e) => e.kind === 'token' && e.tokenKey === tokenKey(token));
const statusOf = (verification: Promise<unknown>): Promise<number> =>
  verification.then(() => 200, (error: unknown) => (error as { status?: number }).status ?? 0);

/**
 * The fleet scenarios on one topology, three instances each: the shared cache,
 * logouts and member ends, the catch-up after every subscription is dropped,
 * and (last, as it changes the deployment) a failover during logouts.
 * `figuresFile`: where the measured figures are written (JSON), if anywhere.
 */
export function describeTopology(name: string, start: () => Promise<TopologyUnderTest>): void {
  describe(`three instances on ${name} (real redis-server)`, () => {
    const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
    let topology: TopologyUnderTest;
    const open: Instance[] = [];
    const figures: Figures = {};
    let prefixCount = 0;
    const login = (memberNo: string = DEMO.admin): string => fx.emulator.login(memberNo, DEMO.gameId).access_token;
    const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

    beforeAll(async () => {
      topology = await start();
    }, 60_000);
    afterAll(async () => {
      for (const instance of open.splice(0)) await instance.close();
      await topology?.stop();
      const out = process.env.PGP_TOPOLOGY_FIGURES;
      if (out !== undefined && out !== '') writeFileSync(`${out}.${name.replace(/\W+/g, '-')}.json`, JSON.stringify(figures, null, 2));
    });
    afterEach(async () => {
      for (const instance of open.splice(0)) await instance.close();
    });

    /** Three instances on `target` (default: the topology's). */
    async function three(target: RedisTarget = topology.target): Promise<[Instance, Instance, Instance, string]> {
      prefixCount += 1;
      const prefix = `pgp-${prefixCount}:`;
      const made: Instance[] = [];
      // A store read is given time: these tests are about what reaches whom, not about a slow read.
      for (let i = 0; i < 3; i += 1) made.push(await startInstance(fx.emulator, target, prefix, 1000));
      open.push(...made);
      return [made[0]!, made[1]!, made[2]!, prefix];
    }

    it('one token costs one platform call across the three, and session ends are written to the catch-up log', async () => {
      const [a, b, c, prefix] = await three();
      const token = login();
      const before = e2Count();
      await a.client.verifyUserToken(token);
      await until(async () => (await b.fleet.store.get(`${b.client.tenantScope}:E2:${tokenKey(token)}`)) !== undefined, BUDGET_MS, 'the shared entry');
      for (const i of [b, c, a, b, c]) expect(await i.client.verifyUserToken(token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
      expect(e2Count() - before).toBe(1);
      figures.e2CallsForOneTokenOnThree = e2Count() - before;
      await a.client.endMemberSessions(DEMO.player, 'admin');
      expect(a.fleet.revocations.namesFor(a.client.tenantScope).logKey.startsWith(prefix)).toBe(true);
      expect(await topology.streamLength(a.fleet.revocations.namesFor(a.client.tenantScope).logKey)).toBe(1);
      expect(a.fleet.revocations.stats.commandFailures).toBe(0);
    }, TEST_MS);

    it('a fleet on a client the application built shares ends and writes the log like its own', async () => {
      const [a, , , prefix] = await three();
      const own = topology.appClient();
      const made = await startInstance(fx.emulator, { client: own }, prefix, 1000);
      try {
        await made.client.endMemberSessions(DEMO.noGuid, 'admin');
        await until(() => a.ends.length === 1, BUDGET_MS, 'the member end');
        expect(await topology.streamLength(made.fleet.revocations.namesFor(made.client.tenantScope).logKey)).toBe(1);
        expect(made.fleet.revocations.stats.commandFailures).toBe(0);
      } finally {
        await made.close();
        await own.destroy();
      }
    }, TEST_MS);

    it('the example app on this topology: ready, and its POST /api/logout ends the token on another instance', async () => {
      const [b, , , prefix] = await three();
      const app = startAppProcess({
        PORT: '0', PLATFORM_BASE_URL: fx.emulator.url, PLATFORM_CLIENT_ID: DEMO.clientId, PLATFORM_CLIENT_SECRET: DEMO.clientSecret,
        PLATFORM_GAME_ID: DEMO.gameId, REDIS_PREFIX: prefix, VERIFY_CACHE_TTL_MS: '30000', REVERIFY_INTERVAL_MS: '0', ...topology.appEnv,
      });
      try {
        const [, url] = await app.waitForOutput(/Ready: (http:\/\/127\.0\.0\.1:\d+)/, BUDGET_MS);
        await until(async () => ((await (await fetch(`${url}/readyz`)).json()) as { status: string }).status === 'ready', BUDGET_MS, 'the app ready on Redis');
        const token = login();
        const auth = { Authorization: `Bearer ${token}` };
        expect((await fetch(`${url}/api/me`, { headers: auth })).status).toBe(200);
        expect((await fetch(`${url}/api/logout`, { method: 'POST', headers: auth })).status).toBe(204);
        await until(() => endedToken(b, token), BUDGET_MS, 'the logout to reach the other instance');
      } finally {
        await app.stop();
      }
    }, TEST_MS);

    it('no seed answers at start-up: the fleet says so once, keeps trying, and is ready once one answers', async () => {
      const link = await cuttableLink(topology.seedUrl);
      link.cut();
      const logger = recordingLogger();
      const fleet = createRedisFleet({ ...topology.targetWithSeed(link.url), prefix: 'pgp-late:', logger, maxReconnectDelayMs: 100 });
      try {
        await until(() => logger.lines.length > 0, BUDGET_MS, 'a log line');
        expect(fleet.health().state).not.toBe('ready');
        link.heal();
        await fleet.ready();
        await until(() => fleet.health().state === 'ready', BUDGET_MS, 'the fleet ready');
        // One line per kind of error a minute (a refused link, a failed discovery), not one per attempt.
        expect(logger.lines.length).toBeLessThanOrEqual(4);
      } finally {
        await fleet.close();
        await link.close();
      }
    }, TEST_MS);

    it('a logout on one instance refuses the token and ends its sessions on the other two', async () => {
      const [a, b, c] = await three();
      const token = login();
      for (const i of [a, b, c]) await i.client.verifyUserToken(token);
      const sent = performance.now();
      await a.client.revokeUserToken(token);
      await until(() => endedToken(b, token) && endedToken(c, token), BUDGET_MS, 'the logout to reach B and C');
      figures.logoutPropagationMs = Math.round(performance.now() - sent);
      for (const i of [b, c]) expect(await statusOf(i.client.verifyUserToken(token))).toBe(401);
    }, TEST_MS);

    it('a member end on one instance reaches the other two', async () => {
      const [a, b, c] = await three();
      await a.client.endMemberSessions(DEMO.noGuid, 'admin');
      const member = { kind: 'member', memberNo: DEMO.noGuid, reason: 'admin', at: expect.any(Number) };
      await until(() => b.ends.length === 1 && c.ends.length === 1, BUDGET_MS, 'the member end');
      for (const i of [a, b, c]) expect(i.ends).toEqual([member]);
    }, TEST_MS);

    it('20 logouts made while every subscription is dropped (CLIENT KILL TYPE pubsub) and kept away all reach the other two, from the log', async () => {
      const admins = topology.dataPorts().map((port) => createClient({ url: topology.adminUrl(port) }));
      const onEvery = (words: string[]): Promise<unknown> => Promise.all(admins.map((admin) => admin.sendCommand(words)));
      await Promise.all(admins.map((admin) => admin.connect()));
      try {
        // The instances connect as a user of their own, so that refusing subscriptions touches
        // nothing else (a Sentinel's own subscriptions to the nodes are the default user's).
        await onEvery(['ACL', 'SETUSER', FLEET_USER, 'on', `>${FLEET_PASSWORD}`, '~*', '&*', '+@all']);
        const [a, b, c] = await three({ ...topology.target, username: FLEET_USER, password: FLEET_PASSWORD });
        const tokens = Array.from({ length: 20 }, () => login());
        // Every node drops the instances' subscribers and refuses them new subscriptions while
        // the 20 logouts go out, and until those have reached B and C: the channel carries them
        // to no one (nor does A's resend once its connections are back), so B and C can only
        // read them from the log.
        await onEvery(['ACL', 'SETUSER', FLEET_USER, '-subscribe', '-ssubscribe', '-psubscribe']);
        await onEvery(['CLIENT', 'KILL', 'TYPE', 'pubsub', 'USER', FLEET_USER]);
        for (const token of tokens) await a.client.revokeUserToken(token);
        const sent = performance.now();
        await until(() => tokenEnds(b) === 20 && tokenEnds(c) === 20, BUDGET_MS, 'the 20 logouts to reach B and C from the log');
        figures.twentyLogoutsReadFromLogMs = Math.round(performance.now() - sent);
        for (const token of tokens) expect(endedToken(b, token) && endedToken(c, token)).toBe(true);
        expect(b.fleet.revocations.stats.caughtUp + c.fleet.revocations.stats.caughtUp).toBe(40);
      } finally {
        await onEvery(['ACL', 'SETUSER', FLEET_USER, '+@all']);
        for (const admin of admins) admin.destroy();
      }
    }, TEST_MS);

    it('a failover during 10 logouts: all take effect on the other two, a valid token meanwhile is never refused', async () => {
      const [a, b, c] = await three();
      const valid = login(DEMO.player);
      for (const i of [a, b, c]) await i.client.verifyUserToken(valid);
      const tokens = Array.from({ length: 10 }, () => login());
      // B answers the valid token over and over: its statuses and readiness through the failover.
      const seen: Array<{ at: number; status: number; store: string }> = [];
      let probing = true;
      const probe = (async () => {
        while (probing) {
          const status = await statusOf(b.client.verifyUserToken(valid));
          seen.push({ at: performance.now(), status, store: b.client.health().store ?? 'none' });
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      const { promoted } = await topology.failover(a.fleet.revocations.namesFor(a.client.tenantScope).logKey);
      const begun = performance.now();
      let promotedAt = 0;
      const promotion = promoted.then(() => void (promotedAt = performance.now()));
      // Half the logouts go while the old primary is leaving, half the moment the new one is named
      // (before every client has noticed): each waits at most for its publish timeout.
      for (const token of tokens.slice(0, 5)) await a.client.revokeUserToken(token);
      await promotion;
      for (const token of tokens.slice(5)) await a.client.revokeUserToken(token);
      await until(() => tokens.every((t) => endedToken(b, t) && endedToken(c, t)), BUDGET_MS, 'the 10 logouts to reach B and C');
      const effective = performance.now();
      await until(() => b.client.health().store === 'ok' && a.client.health().store === 'ok', BUDGET_MS, 'readiness back to ready');
      const ready = performance.now();
      probing = false;
      await probe;
      for (const token of tokens) for (const i of [b, c]) expect(await statusOf(i.client.verifyUserToken(token))).toBe(401);
      const statuses = new Set(seen.map((s) => s.status));
      expect([...statuses].filter((s) => s !== 200 && s !== 503)).toEqual([]); // never a 401 for a valid token
      const late = seen.filter((s) => s.status === 503);
      Object.assign(figures, {
        failoverPromotionMs: Math.round(promotedAt - begun),
        failoverLogoutsEffectiveAfterPromotionMs: Math.round(effective - promotedAt),
        failoverReadyAfterPromotionMs: Math.round(ready - promotedAt),
        failover503Count: late.length,
        failover503WindowMs: late.length === 0 ? 0 : Math.round(late[late.length - 1]!.at - late[0]!.at),
        failoverProbes: seen.length,
        failoverStoreStates: [...new Set(seen.map((s) => s.store))].join(','),
        failoverResent: a.fleet.revocations.stats.resent,
        failoverCommandFailures: a.fleet.revocations.stats.commandFailures,
      });
      // The measured figures (docs/fleet.md), printed on request only: the suite's output stays quiet.
      if (process.env.PGP_TEST_FIGURES === '1') console.log(`${name}: ${JSON.stringify(figures)}`);
    }, 90_000);
  });
}
