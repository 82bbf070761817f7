import { createClient } from 'redis';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, rejectionOf } from '../support/client-harness.js';
import { startTestRedis } from '../support/redis-server.js';
import type { TestRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';
import { cuttableLink } from './cuttable-link.js';
import { startInstance } from './fleet-instances.js';
import type { Instance } from './fleet-instances.js';

/** 200 when the verification resolves, else the error's HTTP status. */
const statusOf = (verification: Promise<unknown>): Promise<number> =>
  verification.then(() => 200, (error: unknown) => (error as { status?: number }).status ?? 0);

/** The status a client obeying `retry_later` ends with: asked again, up to 20 times, while the answer is 503. */
async function statusRetryingLate(verify: () => Promise<unknown>): Promise<number> {
  let status = await statusOf(verify());
  for (let asked = 1; status === 503 && asked < 20; asked += 1) status = await statusOf(verify());
  return status;
}

describe('a revocation marker that cannot be read is never "not revoked" (real redis-server)', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  let redis: TestRedis;
  let raw: ReturnType<typeof createClient>;
  const open: Instance[] = [];
  let prefixCount = 0;
  const login = (): string => fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

  beforeAll(async () => {
    // DEBUG is off by default in Redis 7: a private server that allows it from loopback.
    redis = await startTestRedis(['--enable-debug-command', 'local']);
    raw = createClient({ url: redis.url });
    await raw.connect();
  });
  afterAll(async () => {
    await raw?.close();
    await redis?.stop();
  });
  afterEach(async () => {
    for (const instance of open.splice(0)) await instance.close();
  });
  async function instance(prefix: string, storeTimeoutMs?: number): Promise<Instance> {
    const made = await startInstance(fx.emulator, redis.url, prefix, storeTimeoutMs);
    open.push(made);
    return made;
  }

  it('A revokes T, B starts afterwards, Redis stalls 1 s (DEBUG SLEEP 1): B never answers T with 200', async () => {
    prefixCount += 1;
    const prefix = `pgp-stall-${prefixCount}:`;
    const a = await instance(prefix);
    // One revoked token per check during the stall: a check made just before it began teaches the instance nothing about the next.
    const tokens = Array.from({ length: 30 }, login);
    for (const token of tokens) await a.client.revokeUserToken(token);
    // A stall is a store timeout: the short one this case is about.
    const b = await instance(prefix, 100);
    expect(await statusRetryingLate(() => b.client.verifyUserToken(tokens[0]!))).toBe(401);

    const statuses: number[] = [];
    let stalled = true;
    const sleeping = raw.sendCommand(['DEBUG', 'SLEEP', '1']).finally(() => {
      stalled = false;
    });
    for (const token of tokens.slice(1)) {
      if (!stalled) break;
      statuses.push(await statusOf(b.client.verifyUserToken(token)));
    }
    await sleeping;
    expect(statuses).not.toContain(200);
    expect(statuses.every((s) => s === 503 || s === 401)).toBe(true);
    expect(statuses).toContain(503); // the marker was late: retry_later, never "allowed"
    expect(b.client.storeHealth.state).not.toBe('down'); // a stall is not an outage
    // Once Redis answers again, every revoked token is 401. A busy machine may still read a marker
    // late for a moment after the stall: that is 503, and the client asks again, as told.
    for (const token of tokens) expect(await statusRetryingLate(() => b.client.verifyUserToken(token))).toBe(401);
    // A token nobody revoked is served again once Redis answers.
    const fresh = login();
    expect(await statusRetryingLate(() => b.client.verifyUserToken(fresh))).toBe(200);
  });

  it('a marker key of another type, or holding an unreadable value, counts as revoked (401), with no platform call', async () => {
    prefixCount += 1;
    const prefix = `pgp-type-${prefixCount}:`;
    const b = await instance(prefix);
    const listed = login();
    const garbled = login();
    await raw.lPush(`${prefix}revoked:${tokenKey(listed)}`, 'x');
    // One under the client's scope, one under the previous release's unscoped key.
    await raw.set(`${prefix}${b.client.tenantScope}:revoked:${tokenKey(garbled)}`, '{not json', { PX: 60_000 });
    const before = e2Count();
    for (const token of [listed, garbled]) {
      const error = await rejectionOf(() => b.client.verifyUserToken(token));
      expect(error).toMatchObject({ status: 401, action: 'relogin' });
    }
    expect(e2Count()).toBe(before);
    expect(b.client.storeHealth.state).toBe('ready'); // a wrong-typed key is not a failing store
    await raw.del([`${prefix}revoked:${tokenKey(listed)}`, `${prefix}${b.client.tenantScope}:revoked:${tokenKey(garbled)}`]);
  });

  it('a link gone silent (no reset, no answer) answers 503 at first, then is seen down within seconds and serves through the platform', async () => {
    const link = await cuttableLink(redis.url);
    try {
      const b = await startInstance(fx.emulator, link.url, 'pgp-silent:', 100); // a silent link is a store timeout
      open.push(b);
      link.freeze();
      expect(await statusOf(b.client.verifyUserToken(login()))).toBe(503);
      await until(() => b.fleet.store.health().state !== 'ready', 15_000, 'the silent link to be closed');
      expect(await statusOf(b.client.verifyUserToken(login()))).toBe(200);
    } finally {
      await link.close();
    }
  });

  it('with Redis known down (killed), the instance serves through the platform and its own revocations still hold', async () => {
    const own = await startTestRedis();
    try {
      const b = await startInstance(fx.emulator, own.url, 'pgp-down:');
      open.push(b);
      const revokedHere = login();
      await own.kill();
      await b.client.revokeUserToken(revokedHere);
      expect(b.client.health()).toMatchObject({ store: 'down', degraded: ['store'] });
      expect(await statusOf(b.client.verifyUserToken(login()))).toBe(200);
      expect(await statusOf(b.client.verifyUserToken(revokedHere))).toBe(401);
    } finally {
      await own.stop();
    }
  });
});
