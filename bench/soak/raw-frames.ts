/**
 * Client WebSocket text frames, masked with a zero key (the payload stays as
 * is), for floods written straight to the socket: thousands of frames in one
 * write cost the driver almost nothing, so the app does all the work.
 */
export function maskedTextFrame(payload: string): Buffer {
  const body = Buffer.from(payload);
  const length = body.length;
  let head: Buffer;
  if (length < 126) head = Buffer.from([0x81, 0x80 | length, 0, 0, 0, 0]);
  else if (length < 65_536) head = Buffer.from([0x81, 0x80 | 126, length >> 8, length & 0xff, 0, 0, 0, 0]);
  else {
    head = Buffer.alloc(14);
    head[0] = 0x81;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(length), 2);
  }
  return Buffer.concat([head, body]);
}

/** `count` frames of `payload`, or of `payload(i)` when it is a function, in one buffer. */
export function frameBatch(count: number, payload: string | ((i: number) => string)): Buffer {
  return Buffer.concat(Array.from({ length: count }, (_, i) => maskedTextFrame(typeof payload === 'string' ? payload : payload(i))));
}
