import { performance } from 'node:perf_hooks';
import { LogThrottle } from '../client/log-throttle.js';
import { isPlatformError } from '../errors/index.js';
import { SERVER_FAULT_LOG_WINDOW_MS } from '../middleware/platform-error-handler.js';
import type { Logger } from '../types.js';

/**
 * Logs the server-side faults (503, 500) an adapter answers as the Express
 * error handler does: one line per kind and code a minute (monotonic time),
 * `error` for our own configuration, `warn` for the platform. `logger` is
 * already guarded.
 */
export function faultLogger(logger: Logger): (err: unknown) => void {
  const throttle = new LogThrottle({ now: () => performance.now() }, SERVER_FAULT_LOG_WINDOW_MS);
  return (err) => {
    if (!isPlatformError(err) || !err.isServerFault || !throttle.allow(`${err.kind}:${err.code ?? ''}`)) return;
    const fields = { kind: err.kind, code: err.code, status: err.status };
    if (err.kind === 'configuration') logger.error(fields, err.message);
    else logger.warn(fields, err.message);
  };
}
