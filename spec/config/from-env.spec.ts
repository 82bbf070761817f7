import { fromEnv, SANDBOX_BASE_URL } from '../../lib/config/index.js';

const SECRET = 'env-secret-value';
const env = {
  PLATFORM_ENV: 'Sandbox',
  PLATFORM_CLIENT_ID: 'client',
  PLATFORM_CLIENT_SECRET: SECRET,
  PLATFORM_GAME_ID: 'MYGAME',
};

function messageOf(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('fromEnv', () => {
  it('reads every PLATFORM_ variable', () => {
    const config = fromEnv({ ...env, PLATFORM_INSTANCE_ID: 'server-7', PLATFORM_TIMEOUT_MS: '2500' });
    expect(config).toMatchObject({
      baseUrl: SANDBOX_BASE_URL, environment: 'sandbox', clientId: 'client', gameId: 'MYGAME', instanceId: 'server-7', timeoutMs: 2500,
    });
    expect(config.clientSecret).toBe(SECRET);
  });

  it('prefers PLATFORM_BASE_URL and lets overrides win', () => {
    const config = fromEnv({ ...env, PLATFORM_ENV: undefined, PLATFORM_BASE_URL: 'http://127.0.0.1:4010' }, { gameId: 'OTHER', retries: 0 });
    expect([config.baseUrl, config.gameId, config.retries]).toEqual(['http://127.0.0.1:4010', 'OTHER', 0]);
  });

  it('reads process.env by default', () => {
    const saved = { ...process.env };
    Object.assign(process.env, env);
    try {
      expect(fromEnv().gameId).toBe('MYGAME');
    } finally {
      for (const name of Object.keys(env)) if (saved[name] === undefined) delete process.env[name];
    }
  });

  it.each<[string, Record<string, string | undefined>, string]>([
    ['no secret', { ...env, PLATFORM_CLIENT_SECRET: undefined }, 'passport-game-platform: "PLATFORM_CLIENT_SECRET" is required'],
    ['blank client id', { ...env, PLATFORM_CLIENT_ID: '  ' }, 'passport-game-platform: "PLATFORM_CLIENT_ID" is required'],
    ['no game id', { ...env, PLATFORM_GAME_ID: '' }, 'passport-game-platform: "PLATFORM_GAME_ID" is required'],
    ['no host', { ...env, PLATFORM_ENV: undefined }, 'passport-game-platform: "PLATFORM_BASE_URL" or "PLATFORM_ENV" is required'],
    ['unknown environment', { ...env, PLATFORM_ENV: 'prod' }, 'passport-game-platform: "PLATFORM_ENV" must be "live" or "sandbox"'],
    ['timeout not a number', { ...env, PLATFORM_TIMEOUT_MS: '5s' }, 'passport-game-platform: "PLATFORM_TIMEOUT_MS" must be an integer'],
    ['timeout out of range', { ...env, PLATFORM_TIMEOUT_MS: '0' }, 'passport-game-platform: "PLATFORM_TIMEOUT_MS" must be an integer between 1 and 120000'],
  ])('rejects %s with a message naming the variable', (_name, vars, message) => {
    const text = messageOf(() => fromEnv(vars));
    expect(text).toBe(message);
    expect(text).not.toContain(SECRET);
  });
});
