import { isPlatformError } from '../errors/index.js';
import { LogThrottle } from '../logging/index.js';
import { processMonotonic } from '../time/index.js';
import type { Logger } from '../types.js';

/** At most one log line per kind of server fault (and code) in this window. */
export const SERVER_FAULT_LOG_WINDOW_MS = 60_000;

/**
 * Logs the server-side faults (503, 500) an adapter answers: an outage or a
 * misconfiguration fails every request, so one line per kind and code a
 * minute (monotonic time), `error` for our own configuration, `warn` for the
 * platform. `logger` is already guarded. Every adapter (the Express error
 * handler, Nest, Fastify) logs through one of these.
 */
export function faultLogger(logger: Logger): (err: unknown) => void {
  const throttle = new LogThrottle(processMonotonic, SERVER_FAULT_LOG_WINDOW_MS);
  return (err) => {
    if (!isPlatformError(err) || !err.isServerFault || !throttle.allow(`${err.kind}:${err.code ?? ''}`)) return;
    const fields = { kind: err.kind, code: err.code, status: err.status };
    if (err.kind === 'configuration') logger.error(fields, err.message);
    else logger.warn(fields, err.message);
  };
}
