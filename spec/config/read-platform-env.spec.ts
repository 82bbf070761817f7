import { inspect } from 'node:util';
import { LIVE_BASE_URL, MAX_TIMEOUT_MS, PLATFORM_VARIABLES, SANDBOX_BASE_URL, readPlatformEnv } from '../../lib/config/index.js';
import type { PlatformEnvReading } from '../../lib/config/index.js';

const SECRET = 'reader-secret-4f1c9a';
const env = {
  PLATFORM_ENV: ' Sandbox ',
  PLATFORM_CLIENT_ID: ' client ',
  PLATFORM_CLIENT_SECRET: ` ${SECRET} `,
  PLATFORM_GAME_ID: 'MYGAME',
};

function everything(reading: PlatformEnvReading): string {
  return [JSON.stringify(reading), inspect(reading, { depth: 5 }), ...reading.problems.map((p) => `${p.message} ${p.got ?? ''} ${p.rule}`)].join('\n');
}

describe('readPlatformEnv (the one reader of the PLATFORM_* variables)', () => {
  it('reads every setting, trimmed, and says where each came from', () => {
    const reading = readPlatformEnv({ ...env, PLATFORM_INSTANCE_ID: 'server-7', PLATFORM_TIMEOUT_MS: ' 2500 ' });
    expect(reading.problems).toEqual([]);
    expect(reading.values).toEqual({ environment: 'sandbox', clientId: 'client', gameId: 'MYGAME', instanceId: 'server-7', timeoutMs: 2500 });
    expect(reading.values.clientSecret).toBe(SECRET);
    expect(reading.sources).toEqual(PLATFORM_VARIABLES);
  });

  it('takes a given value (a flag) over its variable and reports the flag as the source', () => {
    const reading = readPlatformEnv(
      { ...env, PLATFORM_BASE_URL: 'http://stale.example', PLATFORM_GAME_ID: 'WRONG' },
      { given: { environment: { value: 'live', source: '--env' }, gameId: { value: ' RIGHT ', source: '--game-id' } } },
    );
    expect(reading.problems).toEqual([]);
    // A location on the command line replaces both location variables: the stale base URL is not read.
    expect(reading.values).toMatchObject({ environment: 'live', gameId: 'RIGHT' });
    expect(reading.values.baseUrl).toBeUndefined();
    expect(reading.sources).toMatchObject({ environment: '--env', gameId: '--game-id', baseUrl: 'PLATFORM_BASE_URL', clientId: 'PLATFORM_CLIENT_ID' });
  });

  it('treats a blank variable or flag as unset, naming where to set it', () => {
    const reading = readPlatformEnv({ ...env, PLATFORM_CLIENT_ID: '   ' }, { given: { gameId: { value: '', source: '--game-id' } } });
    expect(reading.problems.map((p) => [p.kind, p.source, p.message])).toEqual([
      ['required', 'PLATFORM_CLIENT_ID', '"PLATFORM_CLIENT_ID" is required'],
      ['required', '--game-id', '"--game-id" is required'],
    ]);
  });

  it('normalizes the base URL with the client\'s rules and maps PLATFORM_ENV through the library\'s host table', () => {
    expect(readPlatformEnv({ ...env, PLATFORM_ENV: undefined, PLATFORM_BASE_URL: 'http://127.0.0.1:4010/' }).values.baseUrl).toBe('http://127.0.0.1:4010');
    const agreeing = readPlatformEnv({ ...env, PLATFORM_BASE_URL: `${SANDBOX_BASE_URL}/` });
    expect(agreeing.problems).toEqual([]);
  });

  it.each<[string, Record<string, string | undefined>, string, string | undefined]>([
    ['an unknown environment', { PLATFORM_ENV: 'prod' }, '"PLATFORM_ENV" must be "live" or "sandbox"', 'prod'],
    ['a base URL that is not http(s)', { PLATFORM_BASE_URL: 'ftp://x' }, '"PLATFORM_BASE_URL" must be an absolute http(s) URL', 'ftp://x'],
    ['a base URL with credentials', { PLATFORM_BASE_URL: 'https://user:pw@host.example' }, '"PLATFORM_BASE_URL" must not contain credentials', undefined],
    ['a base URL with a query', { PLATFORM_BASE_URL: 'https://host.example/?a=1' }, '"PLATFORM_BASE_URL" must not contain a query or a fragment', 'https://host.example/?a=1'],
    ['the Live host labelled sandbox', { PLATFORM_BASE_URL: LIVE_BASE_URL }, '"PLATFORM_BASE_URL" is the live host but "PLATFORM_ENV" says sandbox', LIVE_BASE_URL],
    ['a timeout that is not a number', { PLATFORM_TIMEOUT_MS: '5s' }, '"PLATFORM_TIMEOUT_MS" must be an integer', '5s'],
    ['a timeout the client would reject', { PLATFORM_TIMEOUT_MS: String(MAX_TIMEOUT_MS + 1) }, `"PLATFORM_TIMEOUT_MS" must be an integer between 1 and ${MAX_TIMEOUT_MS}`, String(MAX_TIMEOUT_MS + 1)],
    ['a Game ID with a space', { PLATFORM_GAME_ID: 'MY GAME' }, '"PLATFORM_GAME_ID" must be printable ASCII without spaces', 'MY GAME'],
  ])('reports %s, naming the variable', (_name, vars, message, got) => {
    const reading = readPlatformEnv({ ...env, ...vars });
    expect(reading.problems).toHaveLength(1);
    expect(reading.problems[0]).toMatchObject({ message });
    expect(reading.problems[0]?.got).toBe(got);
  });

  it('lists every problem at once, location first', () => {
    const reading = readPlatformEnv({ PLATFORM_TIMEOUT_MS: '0' });
    expect(reading.problems.map((p) => p.source)).toEqual(['PLATFORM_BASE_URL', 'PLATFORM_TIMEOUT_MS', 'PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET', 'PLATFORM_GAME_ID']);
    expect(reading.problems[0]?.message).toBe('"PLATFORM_BASE_URL" or "PLATFORM_ENV" is required');
  });

  it('leaves settings the caller overrides unread and unrequired, reported as overrides', () => {
    const reading = readPlatformEnv({ PLATFORM_BASE_URL: 'not a url', PLATFORM_TIMEOUT_MS: 'soon' }, { overridden: ['environment', 'clientId', 'clientSecret', 'gameId', 'timeoutMs'] });
    expect(reading.problems).toEqual([]);
    expect(reading.sources).toMatchObject({ environment: 'overrides', clientSecret: 'overrides', timeoutMs: 'overrides', baseUrl: 'PLATFORM_BASE_URL' });
  });

  it('never shows the client secret: not in JSON, util.inspect or spreads of the reading, nor in any problem', () => {
    const fine = readPlatformEnv(env);
    expect(Object.keys(fine.values)).not.toContain('clientSecret');
    expect({ ...fine.values }).not.toHaveProperty('clientSecret');
    expect(everything(fine)).not.toContain(SECRET);
    // The secret pasted into the wrong variable is refused without being quoted back.
    const misplaced = readPlatformEnv({ ...env, PLATFORM_ENV: SECRET, PLATFORM_TIMEOUT_MS: `${SECRET}1`, PLATFORM_BASE_URL: `https://x:${SECRET}@h.example` });
    expect(misplaced.problems.map((p) => p.source)).toEqual(['PLATFORM_ENV', 'PLATFORM_BASE_URL', 'PLATFORM_TIMEOUT_MS']);
    expect(misplaced.problems.every((p) => p.got === undefined)).toBe(true);
    expect(everything(misplaced)).not.toContain(SECRET);
  });
});
