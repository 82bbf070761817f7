import type { Authenticator } from '../../lib/auth/authenticate.js';
import { tokenKey } from '../../lib/config/fingerprint.js';
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
});
