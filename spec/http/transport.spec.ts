import { createAgents, DeadlineSignal, Transport, TransportError } from '../../lib/http/index.js';
import { startRawServer, sendJsonText } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';

describe('the node:http transport', () => {
  let server: RawServer;
  const agents = createAgents(4);
  afterEach(async () => {
    await server.close();
  });
  afterAll(() => {
    agents.httpAgent.destroy();
  });

  it('hands back any status with its body text, so that neither a success nor a platform answer becomes an exception', async () => {
    server = await startRawServer((req, res) => {
      if (req.url.includes('html')) sendJsonText(res, 404, '<html>no</html>', { 'retry-after': '3' });
      else sendJsonText(res, 503, '{"code":50000}');
    });
    const transport = new Transport(`${server.url}/base/`, agents);
    const signal = new DeadlineSignal(1000);
    expect(await transport.send({ method: 'GET', path: '/html', headers: {} }, signal)).toEqual({ status: 404, text: '<html>no</html>', retryAfter: '3' });
    expect(await transport.send({ method: 'GET', path: 'json', query: { a: '1 2' }, headers: {} }, signal)).toEqual({ status: 503, text: '{"code":50000}', retryAfter: undefined });
    signal.dispose();
    expect(server.requests.map((r) => r.url)).toEqual(['/base/html', '/base/json?a=1+2']);
    // No compression asked for: a compressed answer cannot be a decompression bomb.
    expect(server.requests[0]?.headers['accept-encoding']).toBeUndefined();
    expect(server.requests[0]?.headers.accept).toBe('application/json');
  });

  it('ends an attempt when its signal aborts, keeping only a short code', async () => {
    server = await startRawServer(() => {
      // never answers
    });
    const transport = new Transport(server.url, agents);
    const signal = new DeadlineSignal(50);
    const error = await transport.send({ method: 'POST', path: '/x', headers: { Authorization: 'Bearer secret' }, body: { a: 'b' } }, signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('ERR_CANCELED');
    expect(Object.keys(error as object).sort()).toEqual(['code', 'reused']);
  });
});
