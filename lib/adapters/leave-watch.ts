import { DeadlineSignal } from '../platform-call/index.js';

/** Something whose client can leave: a socket, a response, a Socket.IO connection. */
export interface Leavable {
  on(event: string, listener: () => void): unknown;
  off(event: string, listener: () => void): unknown;
}

/** A watch on a client that may leave before its authentication settles. */
export interface LeaveWatch {
  /**
   * Aborts when the client leaves (or on {@link LeaveWatch.abort}): the package's light signal
   * (a timer-less `DeadlineSignal`, no EventTarget), typed as the `AbortSignal` the
   * authenticator's options take; the authenticator hands it as it is only to the package's own
   * client, and any other verifier a real `AbortSignal` that follows it.
   */
  readonly signal: AbortSignal;
  /** Stops watching (the authentication settled); the signal stays as it is. */
  stop(): void;
  /** Stops watching and aborts: nobody will read the answer (shutdown, a refusal of ours). */
  abort(): void;
}

/**
 * The one way the adapters abort a platform call whose client has gone: the first of `events`
 * on `target` stops the watch, aborts the signal (the call leaves the limiter's queue, or its
 * slot is given up to a caller waiting) and calls `onLeave`, unless `stillThere` says the
 * client had already been answered. Under a flood of abandoned requests the platform calls
 * would otherwise pile up. It runs on every request, so it is one function and one closure
 * per event; `on` rather than `once`: no wrapper for the emitter to build and search.
 */
export function watchLeave(target: Leavable, events: readonly string[], onLeave?: () => void, answered?: () => boolean): LeaveWatch {
  const signal = new DeadlineSignal(Infinity);
  const stop = (): void => {
    for (const event of events) target.off(event, left);
  };
  function left(): void {
    stop();
    if (answered?.() === true) return;
    signal.abort('caller');
    onLeave?.();
  }
  for (const event of events) target.on(event, left);
  return {
    signal: signal as unknown as AbortSignal,
    stop,
    abort(): void {
      stop();
      signal.abort('caller');
    },
  };
}
