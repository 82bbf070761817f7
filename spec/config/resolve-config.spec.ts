import { inspect } from 'node:util';
import {
  DEFAULT_MAX_CONCURRENT_CALLS, DEFAULT_RETRIES, DEFAULT_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, LIVE_BASE_URL,
  SANDBOX_BASE_URL, resolvePlatformConfig,
} from '../../lib/config/index.js';
import type { PlatformConfig } from '../../lib/config/index.js';

const SECRET = 'S3cr3t-value-never-shown';
const base: PlatformConfig = { environment: 'live', clientId: 'client', clientSecret: SECRET, gameId: 'MYGAME' };

function messageOf(options: unknown): string {
  try {
    resolvePlatformConfig(options as PlatformConfig);
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError);
    return (error as Error).message;
  }
  throw new Error('expected a TypeError');
}

describe('resolvePlatformConfig', () => {
  it('fills in the named defaults and the Live host', () => {
    const config = resolvePlatformConfig(base);
    expect(config).toMatchObject({
      baseUrl: LIVE_BASE_URL, environment: 'live', callerId: 'MYGAME_SERVER', instanceId: undefined,
      timeoutMs: DEFAULT_TIMEOUT_MS, totalTimeoutMs: DEFAULT_TOTAL_TIMEOUT_MS, retries: DEFAULT_RETRIES,
      maxConcurrentCalls: DEFAULT_MAX_CONCURRENT_CALLS, cache: undefined,
    });
    expect([DEFAULT_TIMEOUT_MS, DEFAULT_TOTAL_TIMEOUT_MS, DEFAULT_RETRIES]).toEqual([5000, 15000, 2]);
    expect(config.clientSecret).toBe(SECRET);
  });

  it('maps sandbox to its host and keeps a custom base URL without its trailing slash', () => {
    expect(resolvePlatformConfig({ ...base, environment: 'sandbox' }).baseUrl).toBe(SANDBOX_BASE_URL);
    const custom = resolvePlatformConfig({ ...base, environment: undefined, baseUrl: 'http://127.0.0.1:4010/platform/' });
    expect([custom.baseUrl, custom.environment]).toEqual(['http://127.0.0.1:4010/platform', 'custom']);
    expect(resolvePlatformConfig({ ...base, environment: undefined, baseUrl: 'https://api.gate8.com/' }).environment).toBe('sandbox');
  });

  it('returns a frozen object, and an already resolved config unchanged', () => {
    const config = resolvePlatformConfig(base);
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow(TypeError);
    expect(resolvePlatformConfig(config)).toBe(config);
  });

  it('raises the default total budget to timeoutMs when timeoutMs is larger', () => {
    expect(resolvePlatformConfig({ ...base, timeoutMs: 20_000 }).totalTimeoutMs).toBe(20_000);
  });

  it('enables the cache only when asked, with a default size', () => {
    expect(resolvePlatformConfig({ ...base, cache: { ttlMs: 30_000 } }).cache).toEqual({ ttlMs: 30_000, maxEntries: 10_000 });
    expect(resolvePlatformConfig({ ...base, cache: false }).cache).toBeUndefined();
  });

  it('hides the client secret from inspect, JSON, keys and spreads', () => {
    const config = resolvePlatformConfig(base);
    const views = [
      inspect(config), inspect(config, { showHidden: true, depth: 5 }), JSON.stringify(config),
      Object.keys(config).join(','), JSON.stringify({ ...config }), String(Object.entries(config)),
    ];
    for (const view of views) expect(view).not.toContain(SECRET);
    expect(inspect(config)).toContain("clientSecret: '[redacted]'");
  });

  it.each<[string, unknown, string]>([
    ['no options', null, 'passport-game-platform: options must be an object'],
    ['no host', { ...base, environment: undefined }, 'passport-game-platform: "baseUrl" or "environment" is required'],
    ['no secret', { ...base, clientSecret: undefined }, 'passport-game-platform: "clientSecret" is required'],
    ['empty client id', { ...base, clientId: '' }, 'passport-game-platform: "clientId" is required'],
    ['numeric game id', { ...base, gameId: 42 }, 'passport-game-platform: "gameId" must be a string'],
    ['game id with a space', { ...base, gameId: 'my game' }, 'passport-game-platform: "gameId" must be printable ASCII without spaces'],
    ['empty instance id', { ...base, instanceId: '' }, 'passport-game-platform: "instanceId" must be a non-empty string'],
    ['unknown environment', { ...base, environment: 'prod' }, 'passport-game-platform: "environment" must be "live" or "sandbox"'],
    ['ftp base URL', { ...base, baseUrl: 'ftp://example.com' }, 'passport-game-platform: "baseUrl" must be an http(s) URL'],
    ['not a URL', { ...base, baseUrl: 'api.onstove.com' }, 'passport-game-platform: "baseUrl" must be an http(s) URL'],
    ['credentials in the URL', { ...base, baseUrl: `https://user:${SECRET}@example.com` }, 'passport-game-platform: "baseUrl" must not contain credentials'],
    ['query in the URL', { ...base, baseUrl: 'https://example.com/?x=1' }, 'passport-game-platform: "baseUrl" must not contain a query or a fragment'],
    ['zero timeout', { ...base, timeoutMs: 0 }, 'passport-game-platform: "timeoutMs" must be an integer between 1 and 120000'],
    ['fractional timeout', { ...base, timeoutMs: 1.5 }, 'passport-game-platform: "timeoutMs" must be an integer between 1 and 120000'],
    ['budget below timeout', { ...base, timeoutMs: 200, totalTimeoutMs: 100 }, 'passport-game-platform: "totalTimeoutMs" must not be less than "timeoutMs"'],
    ['too many retries', { ...base, retries: 11 }, 'passport-game-platform: "retries" must be an integer between 0 and 10'],
    ['max delay below base', { ...base, retryBaseDelayMs: 500, retryMaxDelayMs: 100 }, 'passport-game-platform: "retryMaxDelayMs" must not be less than "retryBaseDelayMs"'],
    ['logger without methods', { ...base, logger: {} }, 'passport-game-platform: "logger" must have debug, info, warn and error methods'],
    ['clock without now', { ...base, clock: {} }, 'passport-game-platform: "clock" must have a now() method'],
    ['cache without ttl', { ...base, cache: {} }, 'passport-game-platform: "cache.ttlMs" is required'],
    ['cache ttl too long', { ...base, cache: { ttlMs: 300_001 } }, 'passport-game-platform: "cache.ttlMs" must be an integer between 1 and 300000'],
    ['zero cache entries', { ...base, cache: { ttlMs: 1000, maxEntries: 0 } }, 'passport-game-platform: "cache.maxEntries" must be an integer between 1 and 1000000'],
    ['zero concurrency', { ...base, maxConcurrentCalls: 0 }, 'passport-game-platform: "maxConcurrentCalls" must be an integer between 1 and 10000'],
    ['negative queue', { ...base, maxQueuedCalls: -1 }, 'passport-game-platform: "maxQueuedCalls" must be an integer between 0 and 1000000'],
  ])('rejects %s with a message naming the option', (_name, options, message) => {
    expect(messageOf(options)).toBe(message);
  });

  it('never echoes the secret, even when it is passed where it does not belong', () => {
    for (const options of [{ ...base, gameId: SECRET.replace('-', ' ') }, { ...base, baseUrl: `https://u:${SECRET}@h.example` }, { ...base, clientId: 7 }]) {
      expect(messageOf(options)).not.toContain(SECRET.slice(0, 6));
    }
  });
});
