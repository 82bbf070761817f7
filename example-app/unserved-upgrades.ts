import { STATUS_CODES, type Server } from 'node:http';
import { PlatformError, problemResponse } from '../lib/index.js';

/**
 * Answers 404 (problem+json) to an upgrade on a path no handler serves. Once
 * any `'upgrade'` listener exists, Node leaves every upgrade to the listeners:
 * without this one, an upgrade to another path would hold its socket open
 * forever (and keep a graceful shutdown from ending).
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
