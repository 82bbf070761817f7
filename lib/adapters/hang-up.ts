import { DeadlineSignal } from '../http/deadline-signal.js';

/** A watch on one response: `signal` aborts when the client hangs up first. */
export interface HangUpWatch {
  /**
   * The package's light signal (a timer-less `DeadlineSignal`: no
   * EventTarget), typed as the `AbortSignal` the authenticator's options
   * take: the authenticator hands it as it is only to the package's own
   * client, and any other verifier a real `AbortSignal` that follows it.
   */
  readonly signal: AbortSignal;
  /** Stops watching (call it once the authentication settled). */
  stop(): void;
}

interface Closable {
  readonly writableEnded?: boolean;
  on(event: 'close', listener: () => void): unknown;
  off(event: 'close', listener: () => void): unknown;
}

/**
 * Aborts the platform call made for a request when its client hangs up
 * before the answer: nobody would read it, and under a flood of abandoned
 * requests the platform calls would otherwise pile up. `res` is Node's
 * response, a wrapper with `.raw` (Fastify's reply), or anything else
 * (`null`, `undefined`, a mock without events), for which there is nothing
 * to watch: `undefined`. It runs on every request, so it is one function.
 */
export function abortOnHangUp(res: unknown): HangUpWatch | undefined {
  if (res === null || typeof res !== 'object') return undefined;
  const raw = 'raw' in res ? res.raw : res;
  if (raw === null || typeof raw !== 'object') return undefined;
  const out = raw as Partial<Closable>;
  if (typeof out.on !== 'function' || typeof out.off !== 'function') return undefined;
  // An AbortController and the listener on its EventTarget cost about 600 bytes per request.
  const signal = new DeadlineSignal(Infinity);
  const onClose = (): void => {
    if (out.writableEnded !== true) signal.abort('caller');
  };
  // `on` rather than `once`: no wrapper for the emitter to build and search; `stop` removes it.
  out.on('close', onClose);
  return { signal: signal as unknown as AbortSignal, stop: () => out.off!('close', onClose) };
}
