import { startInstance } from './fleet-instances.js';
import type { Instance } from './fleet-instances.js';
import { cuttableLink } from './cuttable-link.js';
import type { CuttableLink } from './cuttable-link.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { DEMO, TEST_SEED, rejectionOf } from '../support/client-harness.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { startTestRedis } from '../support/redis-server.js';
import type { TestRedis } from '../support/redis-server.js';
import { until } from '../support/until.js';

/** A busy machine's ceiling for what takes well under a second on a quiet one. */
const BUDGET_MS = 10_000;

describe('writes a demoted primary accepted and then dropped still take effect (two real redis-servers)', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  let oldPrimary: TestRedis;
  let newPrimary: TestRedis;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeAll(async () => {
    // Private servers (an argument makes them ours, whatever REDIS_URL says).
    [oldPrimary, newPrimary] = await Promise.all([startTestRedis(['--appendonly', 'no']), startTestRedis(['--appendonly', 'no'])]);
  });
  afterAll(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
    await Promise.all([oldPrimary?.stop(), newPrimary?.stop()]);
  });

  async function viaLink(): Promise<{ link: CuttableLink; instance: Instance }> {
    const link = await cuttableLink(oldPrimary.url);
    open.push(link);
    const instance = await startInstance(fx.emulator, link.url, 'pgp-moved:', 1000);
    open.push(instance);
    return { link, instance };
  }
  /** The primary moves for this instance: its connections are dropped and come back on the new primary. */
  function move(link: CuttableLink): void {
    link.retarget(newPrimary.url);
    link.cut();
    link.heal();
  }

  it('B and C follow the new primary first; A\'s logout, taken by the old one, reaches them once A follows too', async () => {
    const [a, b, c] = [await viaLink(), await viaLink(), await viaLink()];
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    for (const { instance } of [a, b, c]) await instance.client.verifyUserToken(token);
    for (const { link } of [b, c]) move(link);
    await until(() => b.instance.fleet.health().state === 'ready' && c.instance.fleet.health().state === 'ready', BUDGET_MS, 'B and C on the new primary');
    await b.instance.fleet.revocations.ready();

    // The old primary still answers A: the logout is accepted there, and lost with it.
    await a.instance.client.revokeUserToken(token);
    expect(a.instance.client.storeHealth.unsyncedRevocations).toBe(0);
    expect([b.instance.ends, c.instance.ends]).toEqual([[], []]);

    move(a.link);
    const moved = performance.now();
    await until(() => b.instance.ends.length === 1 && c.instance.ends.length === 1, BUDGET_MS, 'the logout to reach B and C');
    const reached = performance.now() - moved;
    for (const { instance } of [b, c]) expect(instance.ends).toEqual([{ kind: 'token', tokenKey: tokenKey(token), reason: 'logout', at: expect.any(Number) }]);
    expect(a.instance.fleet.revocations.stats.resent).toBeGreaterThanOrEqual(1);
    // The revocation marker was written again too: an instance started now refuses the token.
    await until(async () => (await b.instance.fleet.store.get(`${b.instance.client.tenantScope}:revoked:${tokenKey(token)}`)) !== undefined, BUDGET_MS, 'the marker on the new primary');
    const late = await startInstance(fx.emulator, newPrimary.url, 'pgp-moved:', 1000);
    open.push(late);
    expect(await rejectionOf(() => late.client.verifyUserToken(token))).toMatchObject({ status: 401 });
    if (process.env.PGP_TEST_FIGURES === '1') console.log(`a logout a demoted primary dropped reached B and C ${Math.round(reached)} ms after A followed the new primary`);
  });
});
