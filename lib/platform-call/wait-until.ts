import { performance } from 'node:perf_hooks';
import type { PlatformError } from '../errors/index.js';
import type { Abortable } from './deadline-signal.js';


/**
 * Waits for a shared promise until a `performance.now()` deadline or until
 * `signal` aborts (the caller has gone); the promise itself goes on for its
 * other waiters. The timer is cleared as soon as either side settles and never
 * keeps the process alive.
 */
export function waitUntil<T>(
  promise: Promise<T>, deadline: number | undefined, onTimeout: () => PlatformError, signal?: Abortable,
): Promise<T> {
  const bounded = deadline !== undefined && deadline !== Infinity;
  if (!bounded && signal === undefined) return promise;
  if (signal?.aborted === true) return Promise.reject(onTimeout());
  const remaining = bounded ? deadline - performance.now() : Infinity;
  if (remaining <= 0) return Promise.reject(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const stop = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const onAbort = (): void => {
      stop();
      reject(onTimeout());
    };
    const timer = bounded ? setTimeout(onAbort, remaining) : undefined;
    timer?.unref();
    signal?.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        stop();
        resolve(value);
      },
      (error: unknown) => {
        stop();
        reject(error);
      },
    );
  });
}
