import { describeRedisLocation, loadFleetSettings, redisTarget } from '../../example-app/fleet-config.js';

describe('loadFleetSettings (the example app on one Redis server, a Cluster or Sentinel)', () => {
  it('shares nothing when no Redis variable is set', () => {
    expect(loadFleetSettings({}, 'G', 'live')).toEqual({ redis: null, redisPrefix: 'pgp:live:G:', verifyCacheTtlMs: 0 });
  });

  it('reads REDIS_URL, REDIS_CLUSTER_URLS or REDIS_SENTINELS with REDIS_SENTINEL_MASTER, each to its fleet target', () => {
    const one = loadFleetSettings({ REDIS_URL: 'redis://u:pw@10.0.0.1:6379', VERIFY_CACHE_TTL_MS: '30000', REDIS_PREFIX: 'p:' }, 'G', 'live');
    expect(one).toEqual({ redis: { kind: 'url', url: 'redis://u:pw@10.0.0.1:6379' }, redisPrefix: 'p:', verifyCacheTtlMs: 30_000 });
    expect(redisTarget(one.redis!)).toEqual({ url: 'redis://u:pw@10.0.0.1:6379' });
    expect(describeRedisLocation(one.redis!)).toBe('redis://***@10.0.0.1:6379');

    const cluster = loadFleetSettings({ REDIS_CLUSTER_URLS: 'redis://10.0.0.1:7000, rediss://10.0.0.2:7001,' }, 'G', 'live').redis!;
    expect(redisTarget(cluster)).toEqual({ cluster: ['redis://10.0.0.1:7000', 'rediss://10.0.0.2:7001'] });

    const sentinel = loadFleetSettings({ REDIS_SENTINELS: '10.0.0.1:26379,[::1]:26380', REDIS_SENTINEL_MASTER: 'mymaster' }, 'G', 'live').redis!;
    expect(redisTarget(sentinel)).toEqual({ sentinel: { sentinels: ['10.0.0.1:26379', '[::1]:26380'], masterName: 'mymaster' } });
  });

  it('refuses two Redis variables at once, naming both, and names any malformed one', () => {
    expect(() => loadFleetSettings({ REDIS_URL: 'redis://a:1', REDIS_CLUSTER_URLS: 'redis://b:2' }, 'G', 'live')).toThrow('REDIS_URL and REDIS_CLUSTER_URLS are both set');
    expect(() => loadFleetSettings({ REDIS_CLUSTER_URLS: 'redis://b:2', REDIS_SENTINELS: 'c:3', REDIS_SENTINEL_MASTER: 'm' }, 'G', 'live')).toThrow('REDIS_CLUSTER_URLS and REDIS_SENTINELS are both set');
    expect(() => loadFleetSettings({ REDIS_CLUSTER_URLS: '10.0.0.1:7000' }, 'G', 'live')).toThrow('REDIS_CLUSTER_URLS must be');
    expect(() => loadFleetSettings({ REDIS_SENTINELS: '10.0.0.1:26379' }, 'G', 'live')).toThrow('REDIS_SENTINELS needs REDIS_SENTINEL_MASTER');
    expect(() => loadFleetSettings({ REDIS_SENTINELS: 'redis://10.0.0.1:26379', REDIS_SENTINEL_MASTER: 'm' }, 'G', 'live')).toThrow('REDIS_SENTINELS must be');
    expect(() => loadFleetSettings({ REDIS_SENTINEL_MASTER: 'm' }, 'G', 'live')).toThrow('REDIS_SENTINEL_MASTER is set without REDIS_SENTINELS');
    expect(() => loadFleetSettings({ REDIS_URL: 'redis://a:1', REDIS_SENTINEL_MASTER: 'm' }, 'G', 'live')).toThrow('REDIS_SENTINEL_MASTER is set with REDIS_URL');
    expect(() => loadFleetSettings({ REDIS_URL: 'redis://a:1', REDIS_CLUSTER_URLS: 'redis://b:2', REDIS_SENTINELS: 'c:3', REDIS_SENTINEL_MASTER: 'm' }, 'G', 'live'))
      .toThrow('REDIS_URL and REDIS_CLUSTER_URLS and REDIS_SENTINELS are all set');
  });
});

describe('the example app\'s default Redis prefix', () => {
  it('names the environment and the game, so Live and Sandbox of one game differ', () => {
    expect(loadFleetSettings({}, 'demo-game', 'live').redisPrefix).toBe('pgp:live:demo-game:');
    expect(loadFleetSettings({}, 'demo-game', 'sandbox').redisPrefix).toBe('pgp:sandbox:demo-game:');
  });
});
