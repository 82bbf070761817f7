import diagnosticsChannel from 'node:diagnostics_channel';
import type { Authenticator } from '../../lib/auth/authenticate.js';
import { CHANNELS, type ConnectionMessage } from '../../lib/diagnostics/channels.js';
import { PlatformError } from '../../lib/errors/index.js';
import { tokenKey } from '../../lib/hashing/fingerprint.js';
import { problemResponse } from '../../lib/problem/problem-response.js';
import { SessionRegistry, type ConnectionEnding } from '../../lib/realtime/index.js';
import type { GameUser } from '../../lib/types.js';

const MEMBER = '20005061986';
const OTHER = '20005061987';
const memberOf = (token: string): string => (token.startsWith('other') ? OTHER : MEMBER);
const authenticate = Object.assign(async () => ({ memberNo: MEMBER, guid: null }), {
  token: async (token: string): Promise<GameUser> => ({ memberNo: memberOf(token), guid: `g${memberOf(token)}` }),
  realm: 'test',
}) as unknown as Authenticator<object, never>;

describe('SessionRegistry bookkeeping', () => {
  let registry: SessionRegistry;
  beforeEach(() => {
    registry = new SessionRegistry({ authenticate, reverifyIntervalMs: 0 });
  });
  afterEach(() => registry.closeAll());

  async function open(token: string, peer: object, close: (ending: ConnectionEnding, peer: object) => void = () => undefined) {
    return registry.add({ transport: 'ws', user: await authenticate.token(token), token, close, peer });
  }

  it('finds a member across its tokens and forgets everything once they close', async () => {
    const a1 = await open('token-a', {});
    const a2 = await open('token-a', {});
    const b = await open('token-b', {});
    const other = await open('other-token', {});
    expect(registry.byMember(MEMBER)).toEqual(expect.arrayContaining([a1, a2, b]));
    expect(registry.byMember(MEMBER)).toHaveLength(3);
    registry.remove(b);
    expect(registry.byMember(MEMBER)).toEqual([a1, a2]);
    expect(registry.byMember(OTHER)).toEqual([other]);
    for (const connection of [a1, a2, other]) registry.remove(connection);
    expect(registry.size).toBe(0);
    expect(registry.tokenCount).toBe(0);
    expect(registry.byMember(MEMBER)).toEqual([]);
    expect(registry.byTokenKey(tokenKey('token-a'))).toEqual([]);
    expect(a1.tokenKey).toBeUndefined();
  });

  it('keeps each connection its own user object, a frozen one included', async () => {
    const first = await open('token-a', {});
    const second = await open('token-a', {});
    expect(second.user).toEqual(first.user);
    expect(second.user).not.toBe(first.user);
    const frozen = Object.freeze(await authenticate.token('token-a'));
    const third = registry.add({ transport: 'ws', user: frozen, token: 'token-a', close: () => undefined });
    expect(third.user).toBe(frozen);
  });

  it('hands the peer to one shared close function, then lets go of it', async () => {
    const closed: Array<[string, object]> = [];
    const close = (ending: ConnectionEnding, peer: object): void => void closed.push([ending.kind === 'ended' ? ending.reason : ending.action, peer]);
    const peer = { id: 1 };
    const connection = await open('token-a', peer, close);
    const member = await open('other-token', { id: 2 }, close);
    expect(registry.endToken(tokenKey('token-a'), 'logout')).toBe(1);
    expect(registry.endMember(OTHER, 'admin')).toBe(1);
    expect(closed).toEqual([['logout', peer], ['admin', { id: 2 }]]);
    expect(connection.open).toBe(false);
    expect(connection.peer).toBeUndefined();
    expect(member.peer).toBeUndefined();
    expect(registry.size).toBe(0);
  });

  it('moves a connection to its refreshed token and its member index with it', async () => {
    const connection = await open('token-a', {});
    const result = await registry.refresh(connection, 'token-b');
    expect(result).toMatchObject({ ok: true, user: { memberNo: MEMBER } });
    expect(registry.byTokenKey(tokenKey('token-a'))).toEqual([]);
    expect(registry.byTokenKey(tokenKey('token-b'))).toEqual([connection]);
    expect(registry.byMember(MEMBER)).toEqual([connection]);
    expect(registry.tokenCount).toBe(1);
  });

  it('limits in-band refreshes per connection: one at a time, then none for minRefreshIntervalMs (429 retry_later with Retry-After)', async () => {
    let now = 0;
    let calls = 0;
    let answer: () => void = () => undefined;
    const slow = Object.assign(async () => undefined, {
      token: async (token: string): Promise<GameUser> => {
        calls += 1;
        await new Promise<void>((resolve) => (answer = resolve));
        return { memberNo: memberOf(token), guid: null };
      },
      realm: 'test',
    }) as unknown as Authenticator<object, never>;
    const limited = new SessionRegistry({ authenticate: slow, reverifyIntervalMs: 0, minRefreshIntervalMs: 2000, now: () => now });
    const connection = limited.add({ transport: 'ws', user: { memberNo: MEMBER, guid: null }, token: 'token-a', close: () => undefined });
    const first = limited.refresh(connection, 'token-b');
    const during = await limited.refresh(connection, 'token-c');
    expect(during).toMatchObject({ ok: false, ended: false, error: { kind: 'rate_limited', status: 429, action: 'retry_later', retryAfter: 2 } });
    const { status, headers, body } = problemResponse(during.ok ? undefined : during.error);
    expect({ status, retryAfter: headers['Retry-After'], challenge: headers['WWW-Authenticate'], action: body.action }).toEqual({ status: 429, retryAfter: '2', challenge: undefined, action: 'retry_later' });
    answer();
    expect(await first).toMatchObject({ ok: true });
    now = 1500;
    expect(await limited.refresh(connection, 'token-d')).toMatchObject({ ok: false, error: { status: 429, retryAfter: 1 } });
    // A missing token is refused for what it is, and does not count.
    expect(await limited.refresh(connection, undefined)).toMatchObject({ ok: false, error: { status: 400, action: 'login' } });
    now = 2000;
    const later = limited.refresh(connection, 'token-e');
    answer();
    expect(await later).toMatchObject({ ok: true });
    expect(calls).toBe(2);
    expect(Object.keys(connection).sort()).toEqual(['closer', 'group', 'openedAt', 'peer', 'refreshNotBefore', 'transport', 'user']);
    limited.closeAll();
  });

  it('validates minRefreshIntervalMs', () => {
    for (const bad of [-1, 1.5, '1000', 2 ** 31]) {
      expect(() => new SessionRegistry({ authenticate, minRefreshIntervalMs: bad as number })).toThrow(/minRefreshIntervalMs must be an integer/);
    }
    expect(() => new SessionRegistry({ authenticate, minRefreshIntervalMs: 0 }).closeAll()).not.toThrow();
  });

  it('tells its shutdown listeners once, when closeAll(shutdown) begins (at once when it already has)', () => {
    const heard: string[] = [];
    const stop = registry.onShutdown(() => heard.push('kept'));
    registry.onShutdown(() => heard.push('second'))();
    registry.closeAll('logout');
    expect([registry.closing, heard]).toEqual([false, []]);
    registry.closeAll('shutdown');
    registry.closeAll('shutdown');
    registry.onShutdown(() => heard.push('late'));
    expect([registry.closing, heard]).toEqual([true, ['kept', 'late']]);
    stop();
  });

  it('tells the connection channel why it ended each session on purpose, and nothing for a player\'s own close', async () => {
    const answers: Record<string, () => PlatformError | GameUser> = {
      refused: () => new PlatformError({ kind: 'invalid_token', code: 40000, message: 'refused' }),
      revoked: () => new PlatformError({ kind: 'invalid_token', message: 'revoked', description: 'The token was revoked' }),
      down: () => new PlatformError({ kind: 'platform_unavailable', message: 'down' }),
      grace: () => ({ memberNo: MEMBER, guid: null, servedInGrace: true }),
    };
    const judged = Object.assign(async () => undefined, {
      token: async (token: string): Promise<GameUser> => {
        const answer = answers[token]?.() ?? { memberNo: memberOf(token), guid: null };
        if (answer instanceof PlatformError) throw answer;
        return answer;
      },
      realm: 'test',
    }) as unknown as Authenticator<object, never>;
    let now = 0;
    const ending = new SessionRegistry({ authenticate: judged, reverifyIntervalMs: 0, reverifyGraceMs: 1000, now: () => now });
    const ends: ConnectionMessage[] = [];
    const listener = (message: unknown): void => void ends.push(message as ConnectionMessage);
    diagnosticsChannel.subscribe(CHANNELS.connection, listener);
    try {
      const open = (token: string) => ending.add({ transport: 'ws', user: { memberNo: memberOf(token), guid: null }, token, close: () => undefined });
      for (const token of ['refused', 'revoked', 'down', 'grace']) open(token);
      now = 999;
      // Not yet a second without a verification: an outage, or an answer from the outage grace, ends nothing.
      expect(await ending.reverifier.verifyAll()).toEqual({ verified: 0, ended: 2, failures: 4 });
      now = 1000;
      expect(await ending.reverifier.verifyAll()).toEqual({ verified: 0, ended: 2, failures: 2 });
      ending.remove(open('token-a'));
      ending.remove(open('token-b'), 'bound');
      open('token-c');
      ending.endToken(tokenKey('token-c'), 'logout');
      open('other-token');
      ending.endMember(OTHER, 'admin');
      open('token-d');
      ending.closeAll('shutdown');
    } finally {
      diagnosticsChannel.unsubscribe(CHANNELS.connection, listener);
    }
    expect(ends.map((m) => [m.reason, m.ended])).toEqual([
      ['relogin', 'refused'], ['relogin', 'revoked'], ['retry_later', 'expired'], ['retry_later', 'expired'],
      ['closed', undefined], ['bound', 'bound'], ['logout', 'logout'], ['admin', 'admin'], ['shutdown', 'shutdown'],
    ]);
  });
});
