import { MAX_RESPONSE_BYTES } from '../../lib/platform-call/index.js';
import type { PlatformRequest } from '../../lib/platform-call/index.js';
import { rawHttpFixture, sendJsonText } from '../support/client-raw-server.js';
import { rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

const OK = '{"code":0,"message":"success"}';
const GET: PlatformRequest = { endpoint: 'E3', method: 'GET', path: '/member/v3.0/g', headers: { 'caller-id': 'g_SERVER' } };

describe('PlatformHttp hardening (bare loopback server)', () => {
  const setup = rawHttpFixture({ timeoutMs: 10_000, totalTimeoutMs: 30_000, retryBaseDelayMs: 5, retryMaxDelayMs: 50 });

  it('keeps one connection alive across sequential calls', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, OK));
    for (let i = 0; i < 3; i += 1) expect((await http.request(GET)).code).toBe(0);
    expect([server.requests.length, server.connections()]).toEqual([3, 1]);
  });

  it('does not follow redirects', async () => {
    const { server: target } = await setup((_req, res) => sendJsonText(res, 200, OK));
    const { server, http } = await setup((_req, res) => {
      res.writeHead(302, { location: `${target.url}/steal` });
      res.end();
    });
    const error = expectPlatformError(await rejectionOf(() => http.request(GET)), 'platform_unavailable', 503);
    expect(error.message).toContain('HTTP 302');
    expect([server.requests.length, target.requests.length]).toEqual([1, 0]);
  });

  it('refuses a body larger than the limit, without retrying', async () => {
    const huge = `{"code":0,"pad":"${'x'.repeat(MAX_RESPONSE_BYTES)}"}`;
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, huge));
    const error = expectPlatformError(await rejectionOf(() => http.request(GET)), 'platform_unavailable', 503);
    expect(error.message).toContain('not the expected JSON');
    expect(server.requests.length).toBe(1);
  });

  it('honours Retry-After, capped at retryMaxDelayMs', async () => {
    const { server, http } = await setup((req, res) => {
      if (server.requests.length === 1) sendJsonText(res, 503, '<html>busy</html>', { 'retry-after': '3600' });
      else sendJsonText(res, 200, OK);
    }, { retryMaxDelayMs: 60 });
    // Answered at all: an hour's wait would overrun the budget and end in a 503 without the retry.
    expect((await http.request(GET)).code).toBe(0);
    const [first, second] = server.requests;
    const gap = (second?.at ?? Infinity) - (first?.at ?? 0);
    expect(gap).toBeGreaterThanOrEqual(50);
  });

  it('does not retry when Retry-After would overrun the total budget', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 503, 'busy', { 'retry-after': '1' }), {
      retryMaxDelayMs: 1000, timeoutMs: 500, totalTimeoutMs: 500,
    });
    expectPlatformError(await rejectionOf(() => http.request(GET)), 'platform_unavailable', 503);
    expect(server.requests.length).toBe(1);
  });

  it('ignores proxy settings from the environment', async () => {
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    process.env.http_proxy = 'http://127.0.0.1:9';
    try {
      const { server, http } = await setup((_req, res) => sendJsonText(res, 200, OK));
      expect((await http.request(GET)).code).toBe(0);
      expect(server.requests[0]?.url).toBe('/member/v3.0/g');
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('keeps even an absolute-looking path under the base URL', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, OK));
    await http.request({ ...GET, path: 'http://evil.invalid/steal' });
    expect(server.requests[0]?.url).toBe('/http://evil.invalid/steal');
  });

  it('sends the JSON body and the given headers', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, OK));
    await http.request({ ...GET, method: 'POST', headers: { 'Content-Type': 'application/json', 'caller-id': 'g_SERVER' }, body: { a: '1' } });
    const [req] = server.requests;
    expect([req?.method, req?.body, req?.headers['content-type'], req?.headers['caller-id']]).toEqual([
      'POST', '{"a":"1"}', 'application/json', 'g_SERVER',
    ]);
  });
});
