import type { Socket } from 'socket.io';

/** Default of `maxQueuedBytes`: what one connection may have waiting to be sent before it is closed. */
export const DEFAULT_MAX_QUEUED_BYTES = 1024 * 1024;

// Each queued packet is an object (and, once handed to the socket, a write
// request) worth far more than its few bytes of text: counting a floor per
// packet keeps a flood of tiny answers as bounded as one large one.
const PACKET_FLOOR_BYTES = 64;

type EngineConnection = Socket['conn'];

interface EnginePacket {
  data?: unknown;
}

interface RawTransportSocket {
  bufferedAmount?: unknown;
  terminate?: unknown;
}

function packetBytes(packet: EnginePacket): number {
  const { data } = packet;
  if (typeof data === 'string') return PACKET_FLOOR_BYTES + Buffer.byteLength(data);
  if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) return PACKET_FLOOR_BYTES + data.byteLength;
  return PACKET_FLOOR_BYTES;
}

// Bytes the transport took but the peer has not read yet (the WebSocket's
// send buffer); long polling sends only what a request asks for, so its
// backlog is the engine's own buffer, counted by the caller.
function transportBytes(conn: EngineConnection): number {
  const raw = (conn.transport as unknown as { socket?: RawTransportSocket } | undefined)?.socket;
  const buffered = raw?.bufferedAmount;
  return typeof buffered === 'number' ? buffered : 0;
}

// A peer that does not read gets no close frame either: the socket is torn
// down at once, so its backlog is freed now, not after a closing handshake.
const dropped = new WeakSet<EngineConnection>();

/** True when the connection was closed for passing its output bound (the registry counts such ends as `bound`). */
export function droppedForBound(conn: EngineConnection): boolean {
  return dropped.has(conn);
}

function dropConnection(conn: EngineConnection): void {
  dropped.add(conn);
  const raw = (conn.transport as unknown as { socket?: RawTransportSocket } | undefined)?.socket;
  conn.close(true);
  if (typeof raw?.terminate === 'function') (raw.terminate as () => void).call(raw);
}

// What a bounded connection has queued in the engine's buffer since its last flush, kept on the
// connection itself: one number per connection, no closure, no weak-table entry.
const QUEUED = Symbol('passport-game-platform.queued-bytes');

interface BoundedConnection {
  [QUEUED]?: number;
  writeBuffer?: unknown[];
}

// One listener per bound, shared by every connection with that bound (the emitter calls it
// with the connection as `this`). The engine empties its buffer into the transport on flush:
// from then on the transport's count holds those bytes, so an empty buffer starts the count
// afresh (no flush listener needed while the buffer can be read).
const listeners = new Map<number, (this: EngineConnection, packet: EnginePacket) => void>();

function listenerFor(maxBytes: number): (this: EngineConnection, packet: EnginePacket) => void {
  let listener = listeners.get(maxBytes);
  if (listener === undefined) {
    listener = function onPacket(this: EngineConnection, packet: EnginePacket): void {
      const conn = this as unknown as BoundedConnection;
      const flushed = Array.isArray(conn.writeBuffer) && conn.writeBuffer.length === 0;
      const queued = (flushed ? 0 : conn[QUEUED] ?? 0) + packetBytes(packet);
      conn[QUEUED] = queued;
      if (queued + transportBytes(this) > maxBytes) dropConnection(this);
    };
    listeners.set(maxBytes, listener);
  }
  return listener;
}

/**
 * Bounds what the server queues for one engine.io connection: the packets
 * waiting in the engine's buffer plus the bytes its transport has not
 * delivered yet. A peer that stops reading while its traffic keeps asking for
 * answers (acknowledged events, broadcasts) is closed once the backlog passes
 * `maxBytes`, instead of growing the server. Installed once per connection;
 * the first bound given wins.
 */
export function boundOutput(conn: EngineConnection, maxBytes: number): void {
  const bounded = conn as unknown as BoundedConnection;
  if (bounded[QUEUED] !== undefined) return;
  bounded[QUEUED] = 0;
  // Dies with the connection: an engine that closed sends no more packets.
  conn.on('packetCreate', listenerFor(maxBytes));
  // An engine whose buffer cannot be read says when it flushes instead.
  if (!Array.isArray(bounded.writeBuffer)) conn.on('flush', resetOnFlush);
}

function resetOnFlush(this: EngineConnection): void {
  (this as unknown as BoundedConnection)[QUEUED] = 0;
}
