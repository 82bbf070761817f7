import { performance } from 'node:perf_hooks';
import type { PlatformError } from '../errors/index.js';

/**
 * Waits for a shared promise until a `performance.now()` deadline; the
 * promise itself goes on for its other waiters. The timer is cleared as soon
 * as either side settles and never keeps the process alive.
 */
export function waitUntil<T>(promise: Promise<T>, deadline: number | undefined, onTimeout: () => PlatformError): Promise<T> {
  if (deadline === undefined || deadline === Infinity) return promise;
  const remaining = deadline - performance.now();
  if (remaining <= 0) return Promise.reject(onTimeout());
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(onTimeout()), remaining);
    timer.unref();
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}
