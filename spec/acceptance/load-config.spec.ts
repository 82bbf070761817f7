import { loadConfig, parseAdminMemberNos } from '../../example-app/load-config.js';

describe('loadConfig (example app environment)', () => {
  it('uses the embedded emulator and port 3000 when nothing is set', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      platform: null,
      adminMemberNos: null,
      webCookieName: 'SUAT',
      webLoginUrl: null,
      webLogoutUrl: null,
      reverifyIntervalMs: 300_000,
      reverifyGraceMs: 900_000,
      outageGraceMs: 0,
    });
  });

  it('reads PLATFORM_OUTAGE_GRACE_MS (0 off, at most one hour), and names a bad one', () => {
    expect(loadConfig({ PLATFORM_OUTAGE_GRACE_MS: '600000' })).toMatchObject({ outageGraceMs: 600_000 });
    expect(loadConfig({ PLATFORM_OUTAGE_GRACE_MS: '3600000' })).toMatchObject({ outageGraceMs: 3_600_000 });
    for (const bad of ['3600001', '-1', '10m', '1.5', '1e6']) {
      expect(() => loadConfig({ PLATFORM_OUTAGE_GRACE_MS: bad })).toThrow(`PLATFORM_OUTAGE_GRACE_MS must be a whole number of milliseconds from 0 (off) to 3600000, got "${bad}".`);
    }
  });

  it('reads REVERIFY_INTERVAL_MS and REVERIFY_GRACE_MS, and names a bad one', () => {
    expect(loadConfig({ REVERIFY_INTERVAL_MS: '60000', REVERIFY_GRACE_MS: '0' })).toMatchObject({ reverifyIntervalMs: 60_000, reverifyGraceMs: 0 });
    expect(() => loadConfig({ REVERIFY_INTERVAL_MS: '5m' })).toThrow('REVERIFY_INTERVAL_MS must be a whole number of milliseconds from 0 to 2147483647, got "5m".');
  });

  it('reads a configured platform', () => {
    const settings = loadConfig({
      PORT: '8080',
      PLATFORM_BASE_URL: 'https://api.gate8.com/',
      PLATFORM_CLIENT_ID: 'id',
      PLATFORM_CLIENT_SECRET: 'secret',
      PLATFORM_GAME_ID: 'MYGAME',
      PLATFORM_INSTANCE_ID: 'server-1',
      ADMIN_MEMBER_NOS: ' 20005061986, 9007199254740993 ,',
    });
    expect(settings.port).toBe(8080);
    expect(settings.platform).toEqual({ baseUrl: 'https://api.gate8.com', clientId: 'id', clientSecret: 'secret', gameId: 'MYGAME', instanceId: 'server-1' });
    expect(settings.adminMemberNos).toEqual(['20005061986', '9007199254740993']);
  });

  it('maps PLATFORM_ENV to the environment host', () => {
    const env = { PLATFORM_CLIENT_ID: 'id', PLATFORM_CLIENT_SECRET: 's', PLATFORM_GAME_ID: 'G' };
    expect(loadConfig({ ...env, PLATFORM_ENV: 'sandbox' }).platform?.baseUrl).toBe('https://api.gate8.com');
    expect(loadConfig({ ...env, PLATFORM_ENV: 'LIVE' }).platform?.baseUrl).toBe('https://api.onstove.com');
    expect(() => loadConfig({ ...env, PLATFORM_ENV: 'prod' })).toThrow('PLATFORM_ENV must be "live" or "sandbox", got "prod".');
  });

  it('names the missing credentials when a platform is configured', () => {
    expect(() => loadConfig({ PLATFORM_ENV: 'live', PLATFORM_CLIENT_ID: 'id' })).toThrow(
      'A platform is configured (PLATFORM_BASE_URL or PLATFORM_ENV) but PLATFORM_CLIENT_SECRET, PLATFORM_GAME_ID are not set; '
      + 'set them, or unset PLATFORM_BASE_URL and PLATFORM_ENV to use the embedded emulator.',
    );
  });

  it('rejects a bad ADMIN_MEMBER_NOS entry with a clear message', () => {
    expect(() => loadConfig({ ADMIN_MEMBER_NOS: '20005061986,alice' })).toThrow(
      'ADMIN_MEMBER_NOS must be comma-separated member numbers (digits only), e.g. "20005061986,20005061987"; "alice" is not one.',
    );
    expect(() => parseAdminMemberNos('1e5')).toThrow('"1e5" is not one');
    expect(() => parseAdminMemberNos('-1')).toThrow('"-1" is not one');
  });

  it('keeps identifiers above 2^53 exact and drops duplicates', () => {
    expect(parseAdminMemberNos('9007199254740993,9007199254740993')).toEqual(['9007199254740993']);
    expect(parseAdminMemberNos('')).toEqual([]);
    expect(parseAdminMemberNos(undefined)).toBeNull();
  });

  it('rejects a bad PORT, URL or cookie name', () => {
    expect(() => loadConfig({ PORT: 'abc' })).toThrow('PORT must be a whole number from 0 to 65535, got "abc".');
    expect(() => loadConfig({ PORT: '70000' })).toThrow('PORT must be a whole number from 0 to 65535');
    expect(() => loadConfig({ PLATFORM_BASE_URL: 'ftp://x' })).toThrow('PLATFORM_BASE_URL must be an absolute http(s) URL, got "ftp://x".');
    expect(() => loadConfig({ WEB_COOKIE_NAME: 'a b' })).toThrow('WEB_COOKIE_NAME must be a cookie name');
    expect(loadConfig({ PORT: '0' }).port).toBe(0);
  });

  it('never puts the secret in an error message', () => {
    let message = '';
    try {
      loadConfig({ PLATFORM_ENV: 'live', PLATFORM_CLIENT_SECRET: 'top-secret-value' });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toContain('PLATFORM_CLIENT_ID');
    expect(message).not.toContain('top-secret-value');
  });
});
