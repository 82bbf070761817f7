import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PlatformConfig } from '../../lib/config/index.js';
import { PlatformHttp } from '../../lib/platform-call/index.js';

export interface RawRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Which TCP connection carried it (1, 2, ...). */
  connection: number;
  /** `performance.now()` when it arrived. */
  at: number;
}

export type RawHandler = (req: RawRequest, res: http.ServerResponse) => void;

/** A bare loopback HTTP server for shapes the emulator does not produce (redirects, huge bodies, Retry-After). */
export interface RawServer {
  url: string;
  requests: RawRequest[];
  connections(): number;
  close(): Promise<void>;
}

export async function startRawServer(handler: RawHandler): Promise<RawServer> {
  const requests: RawRequest[] = [];
  let connections = 0;
  const ids = new WeakMap<object, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const entry: RawRequest = {
        method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'),
        connection: ids.get(req.socket) ?? 0, at: performance.now(),
      };
      requests.push(entry);
      handler(entry, res);
    });
  });
  server.on('connection', (socket) => {
    connections += 1;
    ids.set(socket, connections);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    connections: () => connections,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** Answers JSON text with a status. */
export function sendJsonText(res: http.ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(text);
}

/**
 * For a describe block: `setup(handler, overrides)` starts a raw server and a
 * `PlatformHttp` aimed at it (with `defaults` for the test's timeouts), and
 * both are closed after each test.
 */
export function rawHttpFixture(defaults: Partial<PlatformConfig>) {
  const servers: RawServer[] = [];
  const layers: PlatformHttp[] = [];
  afterEach(async () => {
    for (const layer of layers.splice(0)) void layer.close();
    await Promise.all(servers.splice(0).map((s) => s.close()));
  });
  return async function setup(handler: RawHandler, overrides: Partial<PlatformConfig> = {}): Promise<{ server: RawServer; http: PlatformHttp }> {
    const server = await startRawServer(handler);
    servers.push(server);
    const layer = new PlatformHttp({ baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g', ...defaults, ...overrides });
    layers.push(layer);
    return { server, http: layer };
  };
}
