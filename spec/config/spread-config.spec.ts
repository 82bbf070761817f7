import { inspect } from 'node:util';
import { fromEnv, PlatformClient, resolvePlatformConfig } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';

// Users add their options to what the environment gives:
// `new PlatformClient({ ...fromEnv(), cache: { ttlMs: 30_000 } })`. The copy
// must type-check, keep the secret and resolve again, while no printout of
// the config or of the copy shows the secret.
const SECRET = 'spread-canary-secret-9f3a';
const ENV = { PLATFORM_BASE_URL: 'http://127.0.0.1:1', PLATFORM_CLIENT_ID: 'cid', PLATFORM_CLIENT_SECRET: SECRET, PLATFORM_GAME_ID: 'GAME' };

describe('a resolved configuration spread into new options', () => {
  it('keeps the secret, takes the partial cache with its default and needs no environment fix-up', () => {
    const copy = { ...fromEnv(ENV), cache: { ttlMs: 30_000 } };
    const config = resolvePlatformConfig(copy);
    expect(config.clientSecret).toBe(SECRET);
    expect(config.environment).toBe('custom');
    expect(config.cache).toEqual({ ttlMs: 30_000, maxEntries: 10_000 });
  });

  it('composes with fromEnv overrides and a second spread', () => {
    const options: PlatformConfig = { ...fromEnv(ENV, { cache: { ttlMs: 1000 } }), timeoutMs: 2000 };
    const config = resolvePlatformConfig(options);
    expect({ secret: config.clientSecret, timeoutMs: config.timeoutMs, ttl: config.cache?.ttlMs }).toEqual({ secret: SECRET, timeoutMs: 2000, ttl: 1000 });
  });

  it('lets an explicit clientSecret win over the carried one', () => {
    expect(resolvePlatformConfig({ ...fromEnv(ENV), clientSecret: 'other' }).clientSecret).toBe('other');
  });

  it('refuses a Live URL relabelled sandbox instead of calling Live', () => {
    const live = fromEnv({ ...ENV, PLATFORM_BASE_URL: undefined, PLATFORM_ENV: 'live' });
    expect(() => resolvePlatformConfig({ ...live, environment: 'sandbox' })).toThrow(/"baseUrl" is the live platform but "environment" is "sandbox"/);
  });

  it('never shows the secret in JSON, util.inspect, String() or Object.keys, of the config or of the copy', () => {
    const config = fromEnv(ENV);
    const copy = { ...config, cache: { ttlMs: 30_000 } };
    for (const printed of [JSON.stringify(config), JSON.stringify(copy), inspect(config, { depth: 5, showHidden: true }), inspect(copy, { depth: 5, showHidden: true }), `${Object.values(copy).join(' ')}`, Object.keys(copy).join(' ')]) {
      expect(printed).not.toContain(SECRET);
    }
    expect(inspect(copy)).toContain('[redacted]');
  });
});

describe('a PlatformClient built from the spread', () => {
  let emulator: Emulator;
  beforeAll(async () => { emulator = await startEmulator(); });
  afterAll(async () => { await emulator.close(); });

  it('verifies a user token against the emulator', async () => {
    const env = { PLATFORM_BASE_URL: emulator.url, PLATFORM_CLIENT_ID: 'demo-client', PLATFORM_CLIENT_SECRET: 'demo-secret', PLATFORM_GAME_ID: 'demo-game' };
    const client = new PlatformClient({ ...fromEnv(env), cache: { ttlMs: 30_000 } });
    try {
      const { access_token } = emulator.login('20005061987');
      await expect(client.verifyUserToken(access_token)).resolves.toMatchObject({ memberNo: '20005061987' });
      await expect(client.verifyUserToken(access_token)).resolves.toMatchObject({ memberNo: '20005061987' });
      expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
