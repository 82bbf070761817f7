import type { IncomingMessage } from 'node:http';
import type { RawData, WebSocket } from 'ws';
import type { Authenticator } from '../auth/index.js';
import { PlatformError, missingCredentials } from '../errors/index.js';
import { problemResponse } from '../problem/index.js';
import { closeCodeFor, WS_CLOSE } from '../realtime/index.js';
import { watchLeave, type HandshakeToken, type PendingHandshakes } from '../adapters/index.js';
import type { GameUser } from '../types.js';
import { closeSocket, closeViolating, closeWith, parse, send, SHUTDOWN } from './ws-io.js';

/** Most messages kept while the first message's authentication is in progress; one more closes 1008. */
export const MAX_QUEUED_MESSAGES = 16;

/** What the first-message wait needs from its adapter. */
export interface FirstMessageContext {
  authenticate: Authenticator<object, never>;
  pending: PendingHandshakes;
  timeoutMs: number;
  /** Most bytes of queued messages; one more closes 1008 `too_many_bytes`. */
  maxBytes: number;
  /** The registry's clock: when the token's verification began. */
  now(): number;
  /** Makes the socket live; false when it could not (the socket is being closed). */
  established(ws: WebSocket, req: IncomingMessage, user: GameUser, found: HandshakeToken): boolean;
}

type Queued = [data: RawData, isBinary: boolean];

const CLOSE = ['close'] as const;

function sizeOf(data: RawData): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.length, 0);
  return data.byteLength;
}

// What `ws` hands us may be a view into a larger read buffer: a kept message
// must hold only its own bytes, or a few tiny messages pin whole socket reads.
// A message that fills most of its buffer is kept as it is (a copy would only
// add garbage while a flood is read).
function ownCopy(data: RawData): RawData {
  if (Array.isArray(data)) return Buffer.concat(data);
  if (data instanceof ArrayBuffer) return data;
  return data.byteLength * 2 > data.buffer.byteLength ? data : Buffer.from(data);
}

/**
 * First-message mode: the socket is open, nothing is served until a valid
 * `{"type":"auth","token"}`. Messages that come while that token is being
 * verified are kept (at most {@link MAX_QUEUED_MESSAGES}, and at most
 * `maxBytes` bytes in all) and handed to the
 * live socket's listeners in order; a failed authentication discards them.
 * The wait is tracked in `pending` so shutdown ends it at once.
 */
export function awaitFirstMessage(ws: WebSocket, req: IncomingMessage, context: FirstMessageContext): void {
  const { authenticate, pending } = context;
  // Undefined until the auth message came; then what came after it.
  let queue: Queued[] | undefined;
  let queuedBytes = 0;
  // Nothing of the wait (listeners, timer, queue) stays on the socket once it settled.
  const release = (): void => {
    clearTimeout(timer);
    ws.off('message', onMessage);
    watch.stop();
    queue = undefined;
  };
  // True when this call settled the wait, false when something else (shutdown, close) did first.
  const settle = (): boolean => {
    release();
    return pending.settle(ws);
  };
  const fail = (error: PlatformError): void => {
    if (!settle()) return;
    watch.abort();
    const { body } = problemResponse(error);
    send(ws, { type: 'auth:failed', problem: body });
    closeWith(ws, closeCodeFor(body.action), body.action);
  };
  const timer = setTimeout(() => fail(missingCredentials()), context.timeoutMs);
  timer.unref();
  const watch = watchLeave(ws, CLOSE, settle);
  const onMessage = (data: RawData, isBinary: boolean): void => {
    if (queue !== undefined) {
      const size = sizeOf(data);
      const tooMany = queue.length >= MAX_QUEUED_MESSAGES;
      if (!tooMany && queuedBytes + size <= context.maxBytes) {
        queuedBytes += size;
        return void queue.push([ownCopy(data), isBinary]);
      }
      if (!settle()) return;
      watch.abort();
      return closeViolating(ws, WS_CLOSE.POLICY_VIOLATION, tooMany ? 'too_many_messages' : 'too_many_bytes');
    }
    clearTimeout(timer);
    queue = [];
    const message = parse(data);
    if (message?.type !== 'auth' || typeof message.token !== 'string') return fail(missingCredentials());
    const found: HandshakeToken = { token: message.token, source: 'header', since: context.now() };
    authenticate.token(found.token, { signal: watch.signal }).then(
      (user) => {
        const queued = queue ?? [];
        if (!settle() || ws.readyState !== ws.OPEN) return;
        if (!context.established(ws, req, user, found)) return;
        for (const [payload, isBinary] of queued) ws.emit('message', payload, isBinary);
      },
      (err: unknown) => fail(err instanceof PlatformError ? err : missingCredentials()),
    );
  };
  ws.on('message', onMessage);
  pending.add(ws, () => {
    release();
    watch.abort();
    closeSocket(SHUTDOWN, ws);
  });
}
