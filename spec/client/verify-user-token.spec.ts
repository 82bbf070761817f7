import { PlatformClient } from '../../lib/index.js';
import { fingerprint as emulatorFingerprint } from '../../lib/emulator/index.js';
import { useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { BIG, DEMO, TEST_SEED, clientsOn, configFor, recordEvents, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('PlatformClient.verifyUserToken (E2)', () => {
  const fx = useEmulator({ seed: TEST_SEED });
  const client = clientsOn(() => fx.emulator);
  const login = (memberNo: string): string => fx.emulator.login(memberNo, DEMO.gameId).access_token;

  it('resolves to the member\'s identifiers as decimal strings', async () => {
    expect(await client().verifyUserToken(login(DEMO.admin))).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
  });

  it('gives guid null for a member who has not accepted the game\'s terms', async () => {
    expect(await client().verifyUserToken(login(DEMO.noGuid))).toEqual({ memberNo: DEMO.noGuid, guid: null });
  });

  it('sends the user token only in the JSON body, with the API token as bearer and caller-id', async () => {
    const c = client();
    const user = login(DEMO.admin);
    await c.verifyUserToken(user);
    const apiToken = await c.provider.getToken();
    const [entry] = fx.emulator.requests({ endpoint: 'E2' });
    expect([entry?.method, entry?.path, entry?.callerId]).toEqual(['POST', `/member/v3.0/${DEMO.gameId}/token/verify`, 'demo-game_SERVER']);
    expect(entry?.authFingerprint).toBe(emulatorFingerprint(apiToken));
    expect(entry?.authFingerprint).not.toBe(emulatorFingerprint(user));
    expect(entry?.headers['content-type']).toBe('application/json');
    for (const logged of fx.emulator.requests()) {
      expect(logged.path).not.toContain(user);
      expect(JSON.stringify(logged.headers)).not.toContain(user);
    }
  });

  it('shares one E2 call among concurrent verifications of the same token, and does not keep it afterwards', async () => {
    const c = client();
    const user = login(DEMO.admin);
    const other = login(DEMO.noGuid);
    const results = await Promise.all([...Array.from({ length: 50 }, () => c.verifyUserToken(user)), c.verifyUserToken(other)]);
    expect(results.filter((r) => r.memberNo === DEMO.admin)).toHaveLength(50);
    expect(fx.emulator.requests({ endpoint: 'E2' })).toHaveLength(2);
    await c.verifyUserToken(user);
    expect(fx.emulator.requests({ endpoint: 'E2' })).toHaveLength(3);
  });

  it('reports each call as an event with attempts and the API token fingerprint only', async () => {
    const c = client();
    const { calls } = recordEvents(c);
    await c.verifyUserToken(login(DEMO.admin));
    expect(calls).toEqual([{
      endpoint: 'E2', outcome: 'success', code: 0, durationMs: expect.any(Number), attempts: 1,
      tokenFingerprint: expect.stringMatching(/^[0-9a-f]{8}$/),
    }]);
  });

  it.each<[string, unknown]>([
    ['an empty token', ''],
    ['a non-string', 42],
    ['a token over 4096 characters', 'a'.repeat(4097)],
    ['a token with a space', 'abc def'],
    ['a token with CR/LF', 'abc\r\nX-Evil: 1'],
    ['a non-ASCII token', 'tökén'],
  ])('rejects %s as invalid_token without calling the platform', async (_name, token) => {
    const error = expectPlatformError(await rejectionOf(() => client().verifyUserToken(token as string)), 'invalid_token', 401);
    expect(error.action).toBe('relogin');
    expect(fx.emulator.requests()).toHaveLength(0);
  });
});

describe.each(['number', 'string'] as const)('identifiers sent as JSON %ss', (identifiers) => {
  it('keeps a guid of 2^53 + 1 as the exact string 9007199254740993', async () => {
    await withEmulator({ seed: TEST_SEED, identifiers }, async (emulator) => {
      const client = new PlatformClient(configFor(emulator));
      try {
        const user = await client.verifyUserToken(emulator.login(BIG.memberNo, DEMO.gameId).access_token);
        expect(user).toEqual({ memberNo: '9007199254740997', guid: '9007199254740993' });
        expect(await client.lookupMember({ guid: BIG.guid })).toEqual(user);
      } finally {
        void client.close();
      }
    });
  });
});
