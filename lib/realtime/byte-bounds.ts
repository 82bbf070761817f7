import { integerOption } from '../config/validate.js';
/** Default most bytes queued for one connection and not yet taken by its peer: 1 MiB. */
export const DEFAULT_MAX_BUFFERED_BYTES = 1_048_576;
/** Default most bytes a connection may have us hold before its authentication completes: 16 KiB. */
export const DEFAULT_MAX_PRE_AUTH_BYTES = 16_384;

/** Close code and reason for a peer that stopped reading while its output kept growing. */
export const OUTBOUND_OVERFLOW = Object.freeze({ code: 1008, reason: 'send_buffer_full' });

/**
 * Checks a per-connection byte bound option: a whole number of bytes from
 * 1 to 2^31-1, or `undefined` for `fallback`. Throws a `TypeError` naming
 * `owner` and `name` otherwise.
 */
export function checkByteBound(value: unknown, owner: string, name: string, fallback: number): number {
  return integerOption(value, owner, name, 'bytes', 1, fallback);
}

/**
 * True when a connection whose transport already holds `bufferedBytes` not
 * yet taken by the peer must not be given `nextBytes` more: the peer reads
 * slower than it makes us write, so queueing on would grow memory without
 * limit. Transport-neutral: pass what the transport reports as queued
 * (`ws`: `socket.bufferedAmount`; engine.io: its write buffer plus the
 * underlying socket's), and end the connection with {@link OUTBOUND_OVERFLOW}
 * instead of sending.
 */
export function exceedsOutbound(bufferedBytes: number, nextBytes: number, maxBufferedBytes: number): boolean {
  return bufferedBytes + nextBytes > maxBufferedBytes;
}
