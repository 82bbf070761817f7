import { PlatformClient } from '../../lib/index.js';
import { MemoryVerificationStore } from '../../lib/store/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import type { VerificationStore } from '../../lib/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor } from '../support/client-harness.js';

/**
 * The shape of a Keyv instance (keyv 5: `get(key)`, `set(key, value, ttl?)`
 * with ttl in ms, `delete(key)`, all promise-returning, plus options,
 * events and namespaces the client never touches), backed by a Map as
 * Keyv's default store is. keyv itself is not a dependency of this package.
 */
class KeyvShaped {
  readonly opts = { namespace: 'keyv' };
  readonly #map = new Map<string, { value: unknown; expires: number | undefined }>();
  private readonly now: () => number;

  constructor(now: () => number) {
    this.now = now;
  }
  async get(key: string): Promise<unknown> {
    const entry = this.#map.get(`keyv:${key}`);
    if (entry === undefined) return undefined;
    if (entry.expires !== undefined && entry.expires <= this.now()) {
      this.#map.delete(`keyv:${key}`);
      return undefined;
    }
    return structuredClone(entry.value);
  }
  async set(key: string, value: unknown, ttl?: number): Promise<boolean> {
    this.#map.set(`keyv:${key}`, { value: structuredClone(value), expires: ttl === undefined ? undefined : this.now() + ttl });
    return true;
  }
  async delete(key: string | string[]): Promise<boolean> {
    return this.#map.delete(`keyv:${String(key)}`);
  }
  async clear(): Promise<void> {
    this.#map.clear();
  }
  on(): this {
    return this;
  }
  keys(): string[] {
    return [...this.#map.keys()];
  }
  values(): unknown[] {
    return [...this.#map.values()].map((e) => e.value);
  }
}

describe('the verification store', () => {
  const fx = useEmulator({ seed: TEST_SEED, clock: 'frozen' });
  const open: PlatformClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  const e2Count = (): number => fx.emulator.requests({ endpoint: 'E2' }).length;

  it('accepts a Keyv-shaped store as is, and keeps only digests and identifiers in it', async () => {
    const keyv = new KeyvShaped(() => fx.emulator.now());
    const store: VerificationStore = keyv; // structural: compiles without an adapter
    const c = new PlatformClient({ ...configFor(fx.emulator, { cache: { ttlMs: 30_000 } }), store });
    open.push(c);
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await c.verifyUserToken(token);
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(1);
    expect(keyv.keys()).toEqual([`keyv:${c.tenantScope}:E2:${tokenKey(token)}`]);
    expect(keyv.values()).toEqual([{ memberNo: DEMO.admin, guid: DEMO.adminGuid, expiresAt: expect.any(Number) }]);
    expect(JSON.stringify([keyv.keys(), keyv.values()])).not.toContain(token);
    await c.forgetUserToken(token);
    expect(keyv.keys()).toEqual([]);
  });

  it('trusts an entry no longer than the client TTL, whatever the store keeps', async () => {
    const keyv = new KeyvShaped(() => 0); // a store that never expires anything
    const c = new PlatformClient({ ...configFor(fx.emulator, { cache: { ttlMs: 10_000 } }), store: keyv });
    open.push(c);
    const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
    await c.verifyUserToken(token);
    fx.emulator.advanceClock(10_001);
    await c.verifyUserToken(token);
    expect(e2Count()).toBe(2);
  });

  it('falls back to the platform when the store throws, rejects or hangs', async () => {
    const broken: VerificationStore[] = [
      { get: () => { throw new Error('boom'); }, set: () => { throw new Error('boom'); }, delete: () => { throw new Error('boom'); } },
      { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')), delete: () => Promise.reject(new Error('down')) },
      { get: () => new Promise(() => undefined), set: () => new Promise(() => undefined), delete: () => new Promise(() => undefined) },
    ];
    for (const store of broken) {
      const c = new PlatformClient({ ...configFor(fx.emulator, { cache: { ttlMs: 30_000 } }), store, storeTimeoutMs: 20 });
      open.push(c);
      const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await expect(c.verifyUserToken(token)).resolves.toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
      await expect(c.forgetUserToken(token)).resolves.toBeUndefined();
      expect(c.storeHealth).toMatchObject({ kind: 'memory', ready: false, state: 'down' });
      expect(c.storeHealth.failures).toBeGreaterThan(0);
    }
  });

  it('reads the one-letter entries earlier versions left in a shared store', async () => {
    const c = new PlatformClient({
      ...configFor(fx.emulator, { cache: { ttlMs: 30_000 } }),
      store: { get: async () => ({ m: DEMO.admin, g: DEMO.adminGuid, x: Infinity }), set: async () => true, delete: async () => true },
    });
    open.push(c);
    expect(await c.verifyUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    expect(e2Count()).toBe(0);
  });

  it('ignores store values that are not identifiers', async () => {
    const values: unknown[] = [
      'x', { memberNo: 'abc', guid: null, expiresAt: Infinity }, { memberNo: '1', guid: 2, expiresAt: Infinity }, { memberNo: '1', guid: null },
      { m: 'abc', g: null, x: Infinity }, { m: '1', g: null },
    ];
    for (const value of values) {
      const c = new PlatformClient({
        ...configFor(fx.emulator, { cache: { ttlMs: 30_000 } }),
        store: { get: async () => value, set: async () => true, delete: async () => true },
      });
      open.push(c);
      await c.verifyUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
    }
    expect(e2Count()).toBe(values.length);
  });

  it('names the option when a store or bus lacks a method', () => {
    expect(() => new PlatformClient({ ...configFor(fx.emulator), store: { get: async () => undefined } as never }))
      .toThrow('passport-game-platform: "store" must have get(key), set(key, value, ttlMs) and delete(key) methods');
    expect(() => new PlatformClient({ ...configFor(fx.emulator), revocations: { publish: async () => true } as never }))
      .toThrow('passport-game-platform: "revocations" must have publish(event) and subscribe(listener) methods');
    expect(() => new PlatformClient({ ...configFor(fx.emulator), storeTimeoutMs: 0 }))
      .toThrow('passport-game-platform: "storeTimeoutMs" must be an integer from 1 to 5000');
  });

  it('the in-memory store is bounded and expires on read', async () => {
    let now = 1000;
    const store = new MemoryVerificationStore({ maxEntries: 2, clock: { now: () => now } });
    await store.set('a', { v: 1 }, 100);
    await store.set('b', { v: 2 }, 100);
    await store.set('c', { v: 3 }, 100);
    expect(await store.get('a')).toBeUndefined();
    expect(await store.get('c')).toEqual({ v: 3 });
    now += 101;
    expect(await store.get('c')).toBeUndefined();
    expect(store.health()).toEqual({ state: 'ready' });
  });
});
