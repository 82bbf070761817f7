import { CALLER_GONE } from '../http/aborted.js';

/** A watch on one response: `signal` aborts when the client hangs up first. */
export interface HangUpWatch {
  readonly signal: AbortSignal;
  /** Stops watching (call it once the authentication settled). */
  stop(): void;
}

interface Closable {
  readonly writableEnded?: boolean;
  once(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

function closableOf(res: unknown): Closable | undefined {
  if (res === null || typeof res !== 'object') return undefined;
  // A framework's reply that wraps Node's response (Fastify's `reply.raw`).
  const raw = 'raw' in res ? res.raw : res;
  if (raw === null || typeof raw !== 'object') return undefined;
  const candidate = raw as Partial<Closable>;
  return typeof candidate.once === 'function' && typeof candidate.off === 'function' ? (raw as Closable) : undefined;
}

/**
 * Aborts the platform call made for a request when its client hangs up
 * before the answer: nobody would read it, and under a flood of abandoned
 * requests the platform calls would otherwise pile up. `res` is Node's
 * response, a wrapper with `.raw`, or anything else (`null`, `undefined`, a
 * mock without events), for which there is nothing to watch: `undefined`.
 */
export function abortOnHangUp(res: unknown): HangUpWatch | undefined {
  const out = closableOf(res);
  if (out === undefined) return undefined;
  const aborter = new AbortController();
  const onClose = (): void => {
    if (out.writableEnded !== true) aborter.abort(CALLER_GONE);
  };
  out.once('close', onClose);
  return { signal: aborter.signal, stop: () => out.off('close', onClose) };
}
