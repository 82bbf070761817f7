import type { CallStats, PlatformRequest } from '../../lib/platform-call/index.js';
import { rawHttpFixture, sendJsonText } from '../support/client-raw-server.js';
import { rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

const POST: PlatformRequest = {
  endpoint: 'E2', method: 'POST', path: '/member/v3.0/g/token/verify',
  headers: { 'Content-Type': 'application/json', 'caller-id': 'g_SERVER' }, body: { access_token: 't' },
};

describe('Retries by status and body (the HTTP layer\'s own loop)', () => {
  const setup = rawHttpFixture({ timeoutMs: 10_000, totalTimeoutMs: 30_000, retries: 2, retryBaseDelayMs: 5, retryMaxDelayMs: 20, circuitBreaker: false });

  it('retries a 200 carrying code 50000, then hands the 50000 back', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, '{"code":50000,"message":"busy"}'));
    const stats: CallStats = { attempts: 0 };
    const reply = await http.request(POST, stats);
    expect([reply.code, reply.status, server.requests.length, stats.attempts]).toEqual([50000, 200, 3, 3]);
  });

  it('returns the success that follows a 200 with code 50000', async () => {
    const { server, http } = await setup((_req, res) => {
      sendJsonText(res, 200, server.requests.length === 1 ? '{"code":50000}' : '{"code":0,"value":{"member_no":1}}');
    });
    const reply = await http.request(POST);
    expect([reply.code, server.requests.length]).toEqual([0, 2]);
  });

  it.each([[503, 40000], [500, 40105], [429, 40105], [401, 40000]])(
    'lets a JSON code decide at once on HTTP %i (code %i)', async (status, code) => {
      const { server, http } = await setup((_req, res) => sendJsonText(res, status, `{"code":${code}}`));
      const reply = await http.request(POST);
      expect([reply.code, reply.status, server.requests.length]).toEqual([code, status, 1]);
    },
  );

  it('retries a 429 that is not JSON, then fails with 503 naming the status', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 429, '<html>slow down</html>'), { retries: 1 });
    const error = expectPlatformError(await rejectionOf(() => http.request(POST)), 'platform_unavailable', 503);
    expect([error.message.includes('HTTP 429'), server.requests.length]).toEqual([true, 2]);
  });

  it('retries a 200 that is not JSON, then fails with a bad-body 503', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 200, 'not json'), { retries: 1 });
    const error = expectPlatformError(await rejectionOf(() => http.request(POST)), 'platform_unavailable', 503);
    expect([error.message.includes('not the expected JSON'), server.requests.length]).toEqual([true, 2]);
  });

  it('does not retry a 404 that is not JSON', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 404, '<html>no</html>'));
    const error = expectPlatformError(await rejectionOf(() => http.request(POST)), 'platform_unavailable', 503);
    expect([error.message.includes('HTTP 404'), server.requests.length]).toEqual([true, 1]);
  });

  it('keeps separate retry counts for concurrent calls', async () => {
    const { server, http } = await setup((_req, res) => sendJsonText(res, 503, '<html>down</html>'), { retries: 1 });
    const errors = await Promise.all([1, 2, 3].map(() => rejectionOf(() => http.request(POST))));
    for (const error of errors) expectPlatformError(error, 'platform_unavailable', 503);
    expect(server.requests.length).toBe(6);
  });
});
