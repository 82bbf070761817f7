import type { PlatformClient } from '../../lib/index.js';
import type { VerificationStore } from '../../lib/index.js';
import { MemoryVerificationStore, tenantScope } from '../../lib/store/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, clientsOn, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

// Two games of one studio in one process, sharing one store as the configuration guide allows:
// the platform refuses game A's token for game B, and no entry of A may say otherwise to B.

/** A Map-shaped store (what the store guide shows), shared or not. */
function mapStore(shared: boolean): VerificationStore & { keys(): string[] } {
  const entries = new Map<string, unknown>();
  return {
    shared,
    get: async (key) => entries.get(key),
    set: async (key, value) => entries.set(key, value),
    delete: async (key) => entries.delete(key),
    keys: () => [...entries.keys()],
  };
}

const OTHER = { clientId: 'other-client', clientSecret: 'other-secret', gameId: 'other-game' } as const;

describe('two games sharing one store', () => {
  const fx = useEmulator({ seed: TEST_SEED });
  const client = clientsOn(() => fx.emulator, { cache: { ttlMs: 30_000 } });
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

  /** Game A (demo-game) and game B (other-game), both on `store`. */
  const games = (store: VerificationStore): [PlatformClient, PlatformClient] => [client({ store }), client({ ...OTHER, store })];

  it.each<[string, () => VerificationStore]>([
    ['a Map-shaped store', () => mapStore(false)],
    ['a Map-shaped store marked shared', () => mapStore(true)],
    ['one MemoryVerificationStore', () => new MemoryVerificationStore()],
  ])('%s: game B never accepts game A\'s token from the cache', async (_name, makeStore) => {
    const [a, b] = games(makeStore());
    const tokenOfA = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    expect(await a.verifyUserToken(tokenOfA)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    const before = e2Count();
    // The platform is asked and refuses: "issued for another game".
    expectPlatformError(await rejectionOf(() => b.verifyUserToken(tokenOfA)), 'invalid_token', 401);
    expect(e2Count()).toBe(before + 1);
    // And A still has its own entry.
    expect(await a.verifyUserToken(tokenOfA)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(e2Count()).toBe(before + 1);
  });

  it('a token refused for game B stays refused for B once game A cached it, and each game keeps its own entry', async () => {
    const store = mapStore(true);
    const [a, b] = games(store);
    const tokenOfA = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    const tokenOfB = fx.emulator.login(DEMO.admin, OTHER.gameId).access_token;
    expectPlatformError(await rejectionOf(() => b.verifyUserToken(tokenOfA)), 'invalid_token', 401);
    await a.verifyUserToken(tokenOfA);
    expectPlatformError(await rejectionOf(() => b.verifyUserToken(tokenOfA)), 'invalid_token', 401);
    const userOfB = await b.verifyUserToken(tokenOfB);
    expect(userOfB.memberNo).toBe(DEMO.admin);
    expect(userOfB.guid).not.toBe(DEMO.adminGuid); // the member's guid in game B
    expectPlatformError(await rejectionOf(() => a.verifyUserToken(tokenOfB)), 'invalid_token', 401);
    // Every key is under its game's scope; no key holds a token.
    const scopes = new Set(store.keys().map((key) => key.split(':', 1)[0]));
    expect(scopes).toEqual(new Set([a.tenantScope, b.tenantScope]));
    for (const key of store.keys()) for (const token of [tokenOfA, tokenOfB]) expect(key).not.toContain(token);
  });

  it('a revocation in game A is kept under A\'s scope only, unless the store keeps the previous release\'s marker for a rolling upgrade', async () => {
    const digests = (store: { keys(): string[] }): string[] => store.keys().filter((key) => key.includes('revoked:')).map((key) => key.replace(/[0-9a-f]{64}$/, '<digest>')).sort();
    const store = mapStore(true);
    const [a] = games(store);
    await a.revokeUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
    expect(digests(store)).toEqual([`${a.tenantScope}:revoked:<digest>`]);
    const upgrading = Object.assign(mapStore(true), { rollingUpgrade: true });
    const [c] = games(upgrading);
    await c.revokeUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
    expect(digests(upgrading)).toEqual([`${c.tenantScope}:revoked:<digest>`, 'revoked:<digest>']);
  });

  it('a web token (the member\'s, valid for every game) revoked in game A is still accepted in game B', async () => {
    const [a, b] = games(mapStore(true));
    const web = fx.emulator.issueWebToken(DEMO.admin);
    expect((await b.verifyWebToken(web)).memberNo).toBe(DEMO.admin);
    await a.revokeUserToken(web);
    expectPlatformError(await rejectionOf(() => a.verifyWebToken(web)), 'invalid_token', 401);
    expect((await b.verifyWebToken(web)).memberNo).toBe(DEMO.admin);
  });
});

describe('two games sharing one store, with the outage grace', () => {
  const fx = useEmulator({ seed: TEST_SEED });
  afterEach(() => fx.emulator.clearFaults());
  const client = clientsOn(() => fx.emulator, { timeoutMs: 300, totalTimeoutMs: 800, retries: 1 });

  it('game B never serves game A\'s token in grace from A\'s record', async () => {
    const store = mapStore(true);
    const a = client({ store, outageGraceMs: 60_000 });
    const b = client({ ...OTHER, store, outageGraceMs: 60_000 });
    const tokenOfA = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await a.verifyUserToken(tokenOfA);
    expect(store.keys().some((key) => key.startsWith(`${a.tenantScope}:grace:`))).toBe(true);
    fx.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', status: 503, count: Infinity });
    expect(await a.verifyUserToken(tokenOfA)).toMatchObject({ memberNo: DEMO.admin, servedInGrace: true });
    expectPlatformError(await rejectionOf(() => b.verifyUserToken(tokenOfA)), 'platform_unavailable', 503);
  });
});

describe('the tenant scope', () => {
  it('differs by game and by platform, and names neither', () => {
    const scopes = [
      tenantScope('https://live.example', 'game-a'),
      tenantScope('https://live.example', 'game-b'),
      tenantScope('https://sandbox.example', 'game-a'),
    ];
    expect(new Set(scopes).size).toBe(3);
    for (const scope of scopes) expect(scope).toMatch(/^[0-9a-f]{16}$/);
    // A game id that holds the separator cannot make two tenants meet.
    expect(tenantScope('https://a.example', 'x\ny')).not.toBe(tenantScope('https://a.example\nx', 'y'));
  });
});
