import { PlatformClient } from '../../lib/index.js';
import type { CircuitEvent } from '../../lib/index.js';
import { startRawServer, sendJsonText } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';
import { rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

// Only transport faults, 5xx, 408/429 and 50000 count against the circuit breaker: a refused token is the caller's, not an outage.

const TOKEN_REPLY = '{"code":0,"response_data":{"access_token":"api-token","expires_in":2592000}}';
const MEMBER_REPLY = '{"code":0,"value":{"member_no":1,"guid":2}}';

describe('what counts against the circuit breaker', () => {
  let server: RawServer;
  let client: PlatformClient;
  let circuits: CircuitEvent[];
  const start = async (edgeStatus: number): Promise<void> => {
    server = await startRawServer((req, res) => {
      if (req.url.startsWith('/auth/')) sendJsonText(res, 200, TOKEN_REPLY);
      // A firewall in front of the platform refuses a token that looks like an injection.
      else if (req.body.includes('select')) sendJsonText(res, edgeStatus, '<html><body>Request blocked</body></html>', { 'content-type': 'text/html' });
      else sendJsonText(res, 200, MEMBER_REPLY);
    });
    client = new PlatformClient({
      baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g', retries: 0, timeoutMs: 1000,
      circuitBreaker: { failureThreshold: 3, openMs: 60_000 },
    });
    circuits = [];
    client.on('circuit', (event) => circuits.push(event));
  };
  afterEach(async () => {
    await client.close();
    await server.close();
  });

  it.each([400, 403, 413])('never opens on an edge\'s HTML %i for attacker tokens: players keep being served', async (status) => {
    await start(status);
    for (let i = 0; i < 10; i += 1) {
      const error = expectPlatformError(await rejectionOf(() => client.verifyUserToken(`select-${i}-from-users`)), 'platform_unavailable', 503);
      expect(error.message).toContain(`HTTP ${status}`);
    }
    expect(circuits).toEqual([]);
    expect(await client.verifyUserToken('a-real-player-token')).toEqual({ memberNo: '1', guid: '2' });
  });

  it.each([408, 429, 502])('opens on HTML %i answers (the platform or its edge is failing)', async (status) => {
    await start(status);
    for (let i = 0; i < 3; i += 1) await rejectionOf(() => client.verifyUserToken(`select-${i}-from-users`));
    expect(circuits.map((e) => e.state)).toEqual(['open']);
  });
});
