/**
 * Wraps an async task so that callers arriving while it runs share its
 * promise, and the first caller after it settles starts it again (nothing is
 * cached: a failure is never served to later callers).
 */
export function singleFlight<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  return () => {
    if (running !== undefined) return running;
    // Started at once, as a direct call would be; a synchronous throw becomes a rejection.
    const started = (async () => task())();
    running = started;
    const clear = (): void => {
      if (running === started) running = undefined;
    };
    started.then(clear, clear);
    return started;
  };
}
