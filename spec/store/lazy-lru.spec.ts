import { PlatformClient } from '../../lib/index.js';
import { LazyLru } from '../../lib/store/index.js';

describe('LazyLru', () => {
  it('answers as an empty cache before its first write, then as an LRU', () => {
    const lru = new LazyLru<string, number>({ max: 2 });
    expect([lru.size, lru.get('a'), lru.has('a'), lru.delete('a')]).toEqual([0, undefined, false, false]);
    lru.set('a', 1);
    lru.set('b', 2);
    lru.set('c', 3);
    expect([lru.size, lru.get('a'), lru.get('c'), lru.has('b')]).toEqual([2, undefined, 3, true]);
    expect([lru.delete('b'), lru.has('b'), lru.size]).toEqual([true, false, 1]);
  });

  it('lets a client that has revoked nothing hold none of its 100,000-entry arrays', async () => {
    const options = { baseUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's', gameId: 'g', cache: { ttlMs: 1000 } };
    const before = process.memoryUsage().arrayBuffers;
    const clients = Array.from({ length: 10 }, () => new PlatformClient(options));
    // Built eagerly, each client's caches would take about 4.5 MB of typed arrays.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(4_000_000);
    await Promise.all(clients.map((c) => c.close()));
  });
});
