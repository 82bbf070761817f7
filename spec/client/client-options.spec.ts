import { ApiTokenProvider, PlatformClient } from '../../lib/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor, rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';
import { startRawServer, sendJsonText } from '../support/client-raw-server.js';

describe('PlatformClient options', () => {
  const fx = useEmulator({ seed: TEST_SEED });

  it('shares one provider, and so one E1 call, between clients', async () => {
    const provider = new ApiTokenProvider(configFor(fx.emulator));
    const a = new PlatformClient({ provider });
    const b = new PlatformClient({ provider, cache: { ttlMs: 1000 } });
    try {
      const token = fx.emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await Promise.all([a.verifyUserToken(token), b.verifyUserToken(token), a.lookupMember({ memberNo: DEMO.admin })]);
      expect(fx.emulator.requests({ endpoint: 'E1' })).toHaveLength(1);
      expect([a.provider, b.provider]).toEqual([provider, provider]);
      expect([a.config.gameId, b.config.cache?.ttlMs]).toEqual([DEMO.gameId, 1000]);
    } finally {
      void a.close();
      void b.close();
      provider.close();
    }
  });

  it('refuses a provider built for another game', () => {
    const provider = new ApiTokenProvider(configFor(fx.emulator));
    expect(() => new PlatformClient({ provider, gameId: 'other-game' })).toThrow(
      new TypeError('passport-game-platform: "provider" was built for another baseUrl, clientId or gameId'),
    );
  });

  it('throws the configuration TypeError from the constructor', () => {
    expect(() => new PlatformClient({ ...configFor(fx.emulator), clientSecret: '' })).toThrow(
      new TypeError('passport-game-platform: "clientSecret" is required'),
    );
  });

  it('URL-encodes the Game ID in paths', async () => {
    const server = await startRawServer((req, res) => {
      if (req.url.startsWith('/auth/')) sendJsonText(res, 200, '{"code":0,"response_data":{"access_token":"api-token","expires_in":3600}}');
      else sendJsonText(res, 200, '{"code":0,"value":{"member_no":1}}');
    });
    const client = new PlatformClient({ baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'a/b?c#d%' });
    try {
      await client.verifyUserToken('user-token');
      expect(server.requests.map((r) => r.url)).toEqual(['/auth/v5/server_token', '/member/v3.0/a%2Fb%3Fc%23d%25/token/verify']);
      expect(server.requests.every((r) => r.headers['caller-id'] === 'a/b?c#d%_SERVER')).toBe(true);
    } finally {
      void client.close();
      await server.close();
    }
  });

  it('close() drops keep-alive sockets; a later call fails at once and opens none', async () => {
    const server = await startRawServer((req, res) => {
      if (req.url.startsWith('/auth/')) sendJsonText(res, 200, '{"code":0,"response_data":{"access_token":"api-token"}}');
      else sendJsonText(res, 200, '{"code":0}');
    });
    const client = new PlatformClient({ baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g' });
    try {
      await client.lookupMember({ memberNo: '1' });
      await client.lookupMember({ memberNo: '2' });
      expect(server.connections()).toBe(1);
      await client.close();
      const error = expectPlatformError(await rejectionOf(() => client.lookupMember({ memberNo: '3' })), 'platform_unavailable', 503);
      expect(error.message).toContain('client is closed');
      expect(server.connections()).toBe(1);
    } finally {
      await client.close();
      await server.close();
    }
  });
});
