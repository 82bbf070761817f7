import { PlatformClient } from '../../lib/index.js';
import type { ErrorKind } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, recordEvents, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

type Row = [code: number, kind: ErrorKind, status: number, action: string];
const E2_ROWS: Row[] = [
  [40000, 'invalid_token', 401, 'relogin'],
  [46217, 'device_not_registered', 403, 'register_device'],
  [41002, 'configuration', 500, 'contact_support'],
  [40105, 'configuration', 500, 'contact_support'],
  [50000, 'platform_unavailable', 503, 'retry_later'],
  [12345, 'platform_unavailable', 503, 'retry_later'],
];

describe.each(['ok', 'http', 'platform'] as const)('platform codes with errorStatus "%s"', (errorStatus) => {
  let emulator: Emulator;
  let client: PlatformClient;
  beforeAll(async () => {
    emulator = await startTestEmulator({ errorStatus });
    client = new PlatformClient(configFor(emulator, { retries: 2 }));
    await client.provider.getToken();
  });
  beforeEach(() => {
    emulator.clearFaults();
    emulator.clearRequests();
  });
  afterAll(async () => {
    void client.close();
    await emulator.close();
  });
  const user = (): string => emulator.login(DEMO.admin, DEMO.gameId).access_token;

  it.each(E2_ROWS)('maps E2 code %i to %s (%i, %s)', async (code, kind, status, action) => {
    emulator.injectFault({ endpoint: 'E2', type: 'code', code, count: 10 });
    const { calls } = recordEvents(client);
    const error = expectPlatformError(await rejectionOf(() => client.verifyUserToken(user())), kind, status);
    expect([error.code, error.action]).toEqual([code, action]);
    // Only 50000 is transient: retried (retries: 2), every other code decides at once.
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(code === 50000 ? 3 : 1);
    expect(calls.at(-1)).toMatchObject({ endpoint: 'E2', code, outcome: status >= 500 ? 'failed' : 'rejected' });
    client.removeAllListeners('call');
    client.provider.removeAllListeners('token');
  });

  it('answers invalid_token for a logged-out token and for a token of another game', async () => {
    const token = user();
    emulator.logout(token);
    expect(expectPlatformError(await rejectionOf(() => client.verifyUserToken(token)), 'invalid_token').code).toBe(40000);
    const foreign = emulator.login(DEMO.admin, 'other-game').access_token;
    expect(expectPlatformError(await rejectionOf(() => client.verifyUserToken(foreign)), 'invalid_token').code).toBe(40000);
  });

  it('answers device_not_registered for a member whose device is not registered', async () => {
    const token = emulator.login(DEMO.unregistered, DEMO.gameId).access_token;
    expect(expectPlatformError(await rejectionOf(() => client.verifyUserToken(token)), 'device_not_registered', 403).code).toBe(46217);
  });

  it('maps E3 codes: 40000 is a bad lookup (400, no re-login), 41002 a configuration error', async () => {
    emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40000, count: 1 });
    const bad = expectPlatformError(await rejectionOf(() => client.lookupMember({ memberNo: DEMO.admin })), 'invalid_request', 400);
    expect([bad.code, bad.action]).toEqual([40000, 'none']);
    emulator.injectFault({ endpoint: 'E3', type: 'code', code: 41002, count: 1 });
    expect(expectPlatformError(await rejectionOf(() => client.lookupMember({ memberNo: DEMO.admin })), 'configuration', 500).code).toBe(41002);
  });

  it('maps a refused web token to invalid_token', async () => {
    expect(expectPlatformError(await rejectionOf(() => client.verifyWebToken('not.a.token')), 'invalid_token', 401).code).toBe(40000);
  });
});
