import { EventEmitter } from 'node:events';
import type { Socket } from 'socket.io';
import { NamespaceSessions } from '../../lib/socket-io/namespace-sessions.js';
import { boundOutput, droppedForBound } from '../../lib/socket-io/output-bound.js';

type EngineConnection = Socket['conn'];

// An engine.io connection as the bound reads it: an emitter with a write buffer the engine
// empties on flush, and a transport whose socket reports what the peer has not read.
class FakeConn extends EventEmitter {
  writeBuffer: Array<{ data?: unknown }> = [];
  closed = false;
  readonly transport = { socket: { bufferedAmount: 0, terminate: (): void => undefined } };
  send(data: string): void {
    this.emit('packetCreate', { data });
    this.writeBuffer.push({ data });
  }
  flush(): void {
    this.writeBuffer = [];
  }
  close(): void {
    this.closed = true;
  }
}

const asConn = (conn: FakeConn): EngineConnection => conn as unknown as EngineConnection;

describe('Socket.IO output bound, one shared listener per bound', () => {
  it('closes a connection whose unflushed packets pass the bound', () => {
    const conn = new FakeConn();
    boundOutput(asConn(conn), 4096);
    for (let i = 0; i < 3; i += 1) conn.send('x'.repeat(1000));
    expect(conn.closed).toBe(false);
    conn.send('x'.repeat(1000));
    expect(conn.closed).toBe(true);
    expect(droppedForBound(asConn(conn))).toBe(true);
  });

  it('counts afresh after each flush: steady traffic far beyond the bound in total stays open', () => {
    const conn = new FakeConn();
    boundOutput(asConn(conn), 4096);
    for (let i = 0; i < 100; i += 1) {
      conn.send('x'.repeat(1000));
      conn.send('x'.repeat(1000));
      conn.flush();
    }
    expect(conn.closed).toBe(false);
    expect(droppedForBound(asConn(conn))).toBe(false);
  });

  it('counts afresh on flush when the engine keeps its buffer out of reach', () => {
    const conn = new FakeConn();
    Reflect.deleteProperty(conn, 'writeBuffer');
    boundOutput(asConn(conn), 4096);
    const send = (): boolean => conn.emit('packetCreate', { data: 'x'.repeat(1000) });
    for (let i = 0; i < 100; i += 1) {
      send();
      send();
      conn.emit('flush');
    }
    expect(conn.closed).toBe(false);
    for (let i = 0; i < 5; i += 1) send();
    expect(conn.closed).toBe(true);
  });

  it("adds what the transport has not delivered yet to the engine's buffer", () => {
    const conn = new FakeConn();
    boundOutput(asConn(conn), 4096);
    conn.transport.socket.bufferedAmount = 4000;
    conn.send('x'.repeat(100));
    expect(conn.closed).toBe(true);
  });

  it('installs once (the first bound wins), with the same listener for every connection of a bound', () => {
    const a = new FakeConn();
    const b = new FakeConn();
    boundOutput(asConn(a), 4096);
    boundOutput(asConn(a), 1_000_000);
    boundOutput(asConn(b), 4096);
    expect(a.listenerCount('packetCreate')).toBe(1);
    expect(a.listeners('packetCreate')[0]).toBe(b.listeners('packetCreate')[0]);
    for (let i = 0; i < 5; i += 1) a.send('x'.repeat(1000));
    expect(a.closed).toBe(true);
    expect(b.closed).toBe(false);
  });
});

describe('Socket.IO namespace claims, the socket itself until a second namespace', () => {
  const conn = {};
  const socket = (name: string): Socket => ({ conn, nsp: { name } }) as unknown as Socket;

  it('holds one socket per namespace of a connection, across one and several namespaces', () => {
    const sessions = new NamespaceSessions();
    const main = socket('/');
    const match = socket('/match');
    expect(sessions.claim(main)).toBe(true);
    expect(sessions.claim(main)).toBe(true);
    expect(sessions.claim(socket('/'))).toBe(false);
    expect(sessions.claim(match)).toBe(true);
    expect(sessions.claim(socket('/match'))).toBe(false);
    expect(sessions.claim(socket('/'))).toBe(false);
    // A socket that does not hold its namespace frees nothing.
    sessions.release(socket('/match'));
    expect(sessions.claim(socket('/match'))).toBe(false);
    sessions.release(main);
    expect(sessions.claim(socket('/match'))).toBe(false);
    const again = socket('/');
    expect(sessions.claim(again)).toBe(true);
    sessions.release(match);
    sessions.release(again);
    expect(sessions.claim(socket('/match'))).toBe(true);
  });

  it('keeps connections apart', () => {
    const sessions = new NamespaceSessions();
    expect(sessions.claim(socket('/'))).toBe(true);
    expect(sessions.claim({ conn: {}, nsp: { name: '/' } } as unknown as Socket)).toBe(true);
  });
});
