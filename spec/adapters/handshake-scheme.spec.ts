import { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { TLSSocket } from 'node:tls';
import { handshakeView } from '../../lib/adapters/handshake.js';
import { assertSameSite } from '../../lib/auth/cross-site.js';

// A ws or Socket.IO server that does TLS itself: a handshake's own origin is https, so an older
// browser's upgrade from the server's https page passes and one from http on the same host does not.
function upgrade(socket: Socket, origin: string): IncomingMessage {
  const req = new IncomingMessage(socket);
  req.method = 'GET';
  req.url = '/ws';
  req.headers = { host: 'game.example', upgrade: 'websocket', connection: 'Upgrade', cookie: 'SUAT=okWeb', origin };
  return req;
}

describe('the scheme of a handshake', () => {
  const none = new Set<string>();

  it('is https on a TLS socket', () => {
    const tls = new TLSSocket(new Socket());
    expect(() => assertSameSite(handshakeView(upgrade(tls, 'https://game.example')), none)).not.toThrow();
    expect(() => assertSameSite(handshakeView(upgrade(tls, 'http://game.example')), none)).toThrow(expect.objectContaining({ kind: 'cross_site' }));
    tls.destroy();
  });

  it('is http on a plain socket', () => {
    const plain = new Socket();
    expect(() => assertSameSite(handshakeView(upgrade(plain, 'http://game.example')), none)).not.toThrow();
    expect(() => assertSameSite(handshakeView(upgrade(plain, 'https://game.example')), none)).toThrow(expect.objectContaining({ kind: 'cross_site' }));
    plain.destroy();
  });
});
