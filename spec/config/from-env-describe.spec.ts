import { inspect } from 'node:util';
import { fromEnv, SANDBOX_BASE_URL } from '../../lib/index.js';

const SECRET = 'describe-secret-77d0e2';
const env = {
  PLATFORM_ENV: 'sandbox',
  PLATFORM_CLIENT_ID: 'client',
  PLATFORM_CLIENT_SECRET: SECRET,
  PLATFORM_GAME_ID: 'MYGAME',
  PLATFORM_TIMEOUT_MS: '2500',
};

describe('fromEnv.describe (provenance of the configuration)', () => {
  it('says where each setting came from: its variable, or the caller\'s overrides', () => {
    const { values, sources } = fromEnv.describe(env, { gameId: 'OTHER', logger: console });
    expect(values).toEqual({ environment: 'sandbox', clientId: 'client', timeoutMs: 2500 });
    expect(sources).toEqual({
      baseUrl: 'PLATFORM_BASE_URL',
      environment: 'PLATFORM_ENV',
      clientId: 'PLATFORM_CLIENT_ID',
      clientSecret: 'PLATFORM_CLIENT_SECRET',
      gameId: 'overrides',
      instanceId: 'PLATFORM_INSTANCE_ID',
      timeoutMs: 'PLATFORM_TIMEOUT_MS',
    });
    // Describes exactly what fromEnv builds.
    const config = fromEnv(env, { gameId: 'OTHER' });
    expect([config.baseUrl, config.gameId, config.timeoutMs]).toEqual([SANDBOX_BASE_URL, 'OTHER', 2500]);
  });

  it('lets an overridden location replace both location variables (as a CLI flag does)', () => {
    const vars = { ...env, PLATFORM_BASE_URL: 'http://stale.example:1' };
    expect(fromEnv.describe(vars, { environment: 'live' }).sources).toMatchObject({ environment: 'overrides' });
    expect(fromEnv(vars, { environment: 'live' }).baseUrl).toBe('https://api.onstove.com');
  });

  it('throws what fromEnv throws, naming the variable', () => {
    expect(() => fromEnv.describe({ ...env, PLATFORM_TIMEOUT_MS: '600000' })).toThrow(
      new TypeError('passport-game-platform: "PLATFORM_TIMEOUT_MS" must be an integer between 1 and 120000'),
    );
  });

  it('never shows the client secret, however the result is printed', () => {
    const description = fromEnv.describe(env);
    expect(description.values.clientSecret).toBe(SECRET);
    const printed = [JSON.stringify(description), inspect(description, { depth: 5 }), `${JSON.stringify({ ...description.values })}`].join('\n');
    expect(printed).not.toContain(SECRET);
  });
});
