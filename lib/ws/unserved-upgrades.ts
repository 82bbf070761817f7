import { STATUS_CODES, type Server } from 'node:http';
import { PlatformError } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';

/**
 * Answers 404 (problem+json) to an upgrade on a path no handler serves. Once
 * any `'upgrade'` listener exists (`attachWebSocket` adds one), Node leaves
 * every upgrade to the listeners: without this one, an upgrade to another
 * path would hold its socket open forever (and keep a graceful shutdown from
 * ending). Register it after every upgrade handler of the server.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { refuseUnservedUpgrades } from 'passport-game-platform/ws';
 * const server = createServer();
 * // attachWebSocket(server, { ..., path: '/ws' }); new Server(server) for Socket.IO ...
 * refuseUnservedUpgrades(server, (pathname) => pathname === '/ws' || pathname.startsWith('/socket.io/'));
 * ```
 */
export function refuseUnservedUpgrades(server: Server, served: (pathname: string) => boolean): void {
  server.on('upgrade', (req, socket) => {
    const pathname = (req.url ?? '/').split('?', 1)[0]!;
    if (served(pathname)) return;
    const { status, headers, body } = problemResponse(new PlatformError({ kind: 'not_found', message: 'There is no WebSocket endpoint at this path.' }));
    const text = JSON.stringify(body);
    const head = Object.entries({ ...headers, 'Content-Length': String(Buffer.byteLength(text)), Connection: 'close' })
      .map(([name, value]) => `${name}: ${value}\r\n`).join('');
    socket.on('error', () => socket.destroy());
    socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${text}`);
  });
}
