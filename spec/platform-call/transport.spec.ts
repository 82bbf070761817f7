import { Transport, TransportError } from '../../lib/platform-call/index.js';
import { startRawServer, sendJsonText } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';

describe('the undici transport', () => {
  let server: RawServer;
  let transport: Transport | undefined;
  afterEach(async () => {
    await transport?.close();
    transport = undefined;
    await server.close();
  });

  it('hands back any status with its body text, so that neither a success nor a platform answer becomes an exception', async () => {
    server = await startRawServer((req, res) => {
      if (req.url.includes('html')) sendJsonText(res, 404, '<html>no</html>', { 'retry-after': '3' });
      else sendJsonText(res, 503, '{"code":50000}');
    });
    transport = new Transport(`${server.url}/base/`, { timeoutMs: 1000 });
    expect(await transport.start({ method: 'GET', path: '/html', headers: {} }, 1000).done).toEqual({ status: 404, text: '<html>no</html>', retryAfter: '3' });
    expect(await transport.start({ method: 'GET', path: 'json', query: { a: '1 2' }, headers: {} }, 1000).done).toEqual({ status: 503, text: '{"code":50000}', retryAfter: undefined });
    expect(server.requests.map((r) => r.url)).toEqual(['/base/html', '/base/json?a=1+2']);
    // No compression asked for: a compressed answer cannot be a decompression bomb.
    expect(server.requests[0]?.headers['accept-encoding']).toBeUndefined();
    expect(server.requests[0]?.headers.accept).toBe('application/json');
  });

  it('ends an attempt when it is cancelled, keeping only a short code', async () => {
    server = await startRawServer(() => {
      // never answers
    });
    transport = new Transport(server.url, { timeoutMs: 5000 });
    const exchange = transport.start({ method: 'POST', path: '/x', headers: { Authorization: 'Bearer secret' }, body: { a: 'b' } }, 5000);
    setImmediate(() => exchange.cancel());
    const error = await exchange.done.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransportError);
    expect((error as TransportError).code).toBe('ERR_CANCELED');
    expect(Object.keys(error as object).sort()).toEqual(['code', 'reused']);
  });

  it('ends an attempt whose answer does not come within its own time, as a timeout', async () => {
    server = await startRawServer(() => {
      // never answers
    });
    transport = new Transport(server.url, { timeoutMs: 5000 });
    const error = await transport.start({ method: 'GET', path: '/x', headers: {} }, 50).done.catch((e: unknown) => e);
    expect((error as TransportError).code).toBe('ETIMEDOUT');
  });

  it('follows no redirect and reads no proxy from the environment', async () => {
    server = await startRawServer((_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end('{"code":0}');
    });
    const saved = process.env.HTTP_PROXY;
    process.env.HTTP_PROXY = 'http://127.0.0.1:9';
    try {
      transport = new Transport(server.url, { timeoutMs: 1000 });
      const res = await transport.start({ method: 'GET', path: '/x', headers: {} }, 1000).done;
      expect(res.status).toBe(302);
      expect(server.requests).toHaveLength(1);
    } finally {
      if (saved === undefined) delete process.env.HTTP_PROXY;
      else process.env.HTTP_PROXY = saved;
    }
  });
});
