import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { WebSocket, RawData } from 'ws';
import type { ProblemResponse } from '../problem/index.js';
import { closeFrameFor, DEFAULT_MAX_BUFFERED_BYTES, exceedsOutbound, OUTBOUND_OVERFLOW, type ConnectionEnding } from '../realtime/index.js';

// A peer that never answers our close frame is cut off after this.
const CLOSE_GRACE_MS = 5_000;
// A peer closed for breaking a bound is cut off sooner: long enough for our close frame to reach
// it, and no longer, since what it sent meanwhile sits in buffers until the socket is gone.
const VIOLATOR_GRACE_MS = 250;

/** What shutdown tells a socket: `session:ended` `shutdown`, then 1001 `shutdown`. */
export const SHUTDOWN: ConnectionEnding = Object.freeze({ kind: 'ended', reason: 'shutdown' });

/**
 * Sends a JSON message, unless what is already queued for the peer plus this
 * message passes `maxBufferedBytes`: the peer then is not reading, and is
 * closed (1008 `send_buffer_full`) instead of being buffered for. False when
 * nothing was sent.
 */
export function send(ws: WebSocket, message: object, maxBufferedBytes = DEFAULT_MAX_BUFFERED_BYTES): boolean {
  if (ws.readyState !== ws.OPEN) return false;
  const text = JSON.stringify(message);
  if (exceedsOutbound(ws.bufferedAmount, Buffer.byteLength(text), maxBufferedBytes)) {
    closeOverflowing(ws);
    return false;
  }
  ws.send(text);
  return true;
}

/** Closes a peer whose queued output passed the bound (1008 `send_buffer_full`). */
export function closeOverflowing(ws: WebSocket): void {
  if (ws.readyState === ws.OPEN) closeViolating(ws, OUTBOUND_OVERFLOW.code, OUTBOUND_OVERFLOW.reason);
}

/**
 * Closes a peer that broke a bound, and stops reading from it: whatever it
 * has still sent stays in the kernel until the socket is cut, rather than
 * being read, framed and thrown away (a flooding peer keeps sending after
 * our close frame). Its close frame is not waited for.
 */
export function closeViolating(ws: WebSocket, code: number, reason: string): void {
  violators.add(ws);
  ws.pause();
  closeWith(ws, code, reason, VIOLATOR_GRACE_MS);
}

const violators = new WeakSet<WebSocket>();

/** True when we closed this socket for breaking a bound (the registry counts such ends as `bound`). */
export function brokeBound(ws: WebSocket): boolean {
  return violators.has(ws);
}

/** Sends our close frame and cuts the socket off `graceMs` later if the peer has not closed it. */
export function closeWith(ws: WebSocket, code: number, reason: string, graceMs = CLOSE_GRACE_MS): void {
  ws.close(code, reason);
  setTimeout(() => ws.terminate(), graceMs).unref();
}

/** Tells the client why, then closes. One function for every socket: the registry hands the socket back. */
export function closeSocket(ending: ConnectionEnding, ws: WebSocket): void {
  if (ending.kind === 'expired') send(ws, { type: 'auth:expired', action: ending.action, ...(ending.code === undefined ? {} : { code: ending.code }) });
  else send(ws, { type: 'session:ended', reason: ending.reason });
  const { code, reason } = closeFrameFor(ending);
  closeWith(ws, code, reason);
}

/** Answers a refused upgrade with our status, headers and problem body, then closes the socket. */
export function refuse(socket: Duplex, response: ProblemResponse): void {
  if (!socket.writable) return void socket.destroy();
  const body = JSON.stringify(response.body);
  const headers = { ...response.headers, 'Content-Length': String(Buffer.byteLength(body)), Connection: 'close' };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  socket.end(`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}\r\n${head}\r\n${body}`);
}

/** A client message as a JSON object, or `undefined`. */
export function parse(data: RawData): { type?: unknown; token?: unknown } | undefined {
  try {
    const value: unknown = JSON.parse(data.toString());
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
