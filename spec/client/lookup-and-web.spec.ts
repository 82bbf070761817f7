import { PlatformClient } from '../../lib/index.js';
import type { MemberQuery } from '../../lib/index.js';
import { fingerprint as emulatorFingerprint } from '../../lib/emulator/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('PlatformClient.lookupMember (E3) and verifyWebToken', () => {
  const fx = useEmulator({ seed: TEST_SEED, identifiers: 'string' });
  let client: PlatformClient;
  beforeEach(() => {
    client = new PlatformClient(configFor(fx.emulator));
  });
  afterEach(() => client.close());

  it('looks a member up by member_no or guid', async () => {
    const admin = { memberNo: DEMO.admin, guid: DEMO.adminGuid };
    expect(await client.lookupMember({ memberNo: DEMO.admin })).toEqual(admin);
    expect(await client.lookupMember({ guid: DEMO.adminGuid })).toEqual(admin);
    expect(await client.lookupMember({ memberNo: DEMO.noGuid })).toEqual({ memberNo: DEMO.noGuid, guid: null });
  });

  it('resolves to null when the platform finds nobody', async () => {
    expect(await client.lookupMember({ memberNo: '1' })).toBeNull();
  });

  it('sends search_type and value in the query, the API token as bearer, caller-id and the Content-Type the platform lists', async () => {
    await client.lookupMember({ guid: DEMO.adminGuid });
    const [entry] = fx.emulator.requests({ endpoint: 'E3' });
    expect([entry?.method, entry?.path, entry?.callerId]).toEqual([
      'GET', `/member/v3.0/${DEMO.gameId}?search_type=guid&value=${DEMO.adminGuid}`, 'demo-game_SERVER',
    ]);
    expect(entry?.authFingerprint).toBe(emulatorFingerprint(await client.provider.getToken()));
    expect(entry?.headers['content-type']).toBe('application/json'); // listed for E3 too, though a GET has no body
  });

  it.each<[string, unknown]>([
    ['no identifier', {}],
    ['both identifiers', { memberNo: '1', guid: '2' }],
    ['letters', { memberNo: '12a' }],
    ['a number instead of a string', { guid: 123 }],
    ['a path', { memberNo: '../../admin' }],
  ])('rejects a query with %s without calling the platform', async (_name, query) => {
    const error = expectPlatformError(await rejectionOf(() => client.lookupMember(query as MemberQuery)), 'invalid_request', 400);
    expect(error.action).toBe('none');
    expect(fx.emulator.requests()).toHaveLength(0);
  });

  it('verifies a web token with GET /member/v3.0/{game_id}, the web token as bearer, and no E1 call', async () => {
    const webToken = fx.emulator.issueWebToken(DEMO.admin);
    expect(await client.verifyWebToken(webToken)).toEqual({ memberNo: DEMO.admin, guid: DEMO.adminGuid });
    const [entry] = fx.emulator.requests({ endpoint: 'web' });
    expect([entry?.method, entry?.path, entry?.callerId]).toEqual(['GET', `/member/v3.0/${DEMO.gameId}`, 'demo-game_SERVER']);
    expect(entry?.authFingerprint).toBe(emulatorFingerprint(webToken));
    expect(fx.emulator.requests({ endpoint: 'E1' })).toHaveLength(0);
  });
});
