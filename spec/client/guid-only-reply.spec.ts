import { PlatformClient } from '../../lib/index.js';
import { sendJsonText, startRawServer } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';

// The spec: "When code is 0, value holds guid (GUID-based games) or member_no".
// The emulator always sends member_no, so a raw server plays a GUID-only platform.
describe('an E2 answer that names only the guid', () => {
  let server: RawServer;
  let lookups: Array<string | null>;
  let known: boolean;
  let refuseLookup: boolean;

  beforeEach(async () => {
    lookups = [];
    known = true;
    refuseLookup = false;
    server = await startRawServer((req, res) => {
      if (req.url === '/auth/v5/server_token') {
        return sendJsonText(res, 200, '{"code":0,"message":"success","response_data":{"access_token":"api-token","expires_in":2591999}}');
      }
      if (req.url.endsWith('/token/verify')) {
        return sendJsonText(res, 200, '{"code":0,"message":"success","value":{"guid":9007199254740995}}');
      }
      const query = new URL(req.url, 'http://x').searchParams;
      lookups.push(query.get('search_type') === 'guid' ? query.get('value') : null);
      if (refuseLookup) return sendJsonText(res, 200, '{"code":40000,"message":"bad request"}');
      return sendJsonText(res, 200, known
        ? '{"code":0,"message":"success","value":{"member_no":9007199254740993,"guid":9007199254740995}}'
        : '{"code":0,"message":"success"}');
    });
  });

  afterEach(async () => {
    await server.close();
  });

  const client = () => new PlatformClient({ baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g', retries: 0 });

  it('fills member_no from an E3 lookup by guid, exactly', async () => {
    const c = client();
    try {
      expect(await c.verifyUserToken('user-token')).toEqual({ memberNo: '9007199254740993', guid: '9007199254740995' });
      expect(lookups).toEqual(['9007199254740995']);
    } finally {
      void c.close();
    }
  });

  it('answers 500, not 400, when E3 refuses our own lookup of that guid', async () => {
    refuseLookup = true;
    const c = client();
    try {
      await expect(c.verifyUserToken('user-token')).rejects.toMatchObject({ kind: 'configuration', status: 500, code: 40000 });
    } finally {
      void c.close();
    }
  });

  it('answers 500 contact_support, not 503 retry_later, when E3 does not know that guid', async () => {
    known = false;
    const c = client();
    try {
      await expect(c.verifyUserToken('user-token')).rejects.toMatchObject({ kind: 'configuration', status: 500, action: 'contact_support' });
    } finally {
      void c.close();
    }
  });
});
