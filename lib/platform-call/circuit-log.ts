import type { ResolvedPlatformConfig } from '../config/index.js';
import type { CircuitEvent } from './circuit-breaker.js';

/**
 * One log line per state change of the circuit breaker: a warning when it
 * opens, info when a probe fails or it closes, debug when it turns half-open.
 * A platform down for a minute gives one warning, not one per request.
 */
export function logCircuitChange(config: ResolvedPlatformConfig, event: CircuitEvent): void {
  const { logger } = config;
  const openMs = config.circuitBreaker?.openMs;
  const fields = { circuit: event.state, previous: event.previous, endpoint: event.endpoint, failures: event.failures };
  if (event.state === 'open' && event.previous === 'closed') {
    logger.warn({ ...fields, openMs }, `The platform failed ${event.failures} calls in a row: platform calls are paused for ${openMs} ms (answering 503 retry_later at once), then one probe call is tried.`);
  } else if (event.state === 'open') {
    logger.info({ ...fields, openMs }, `The probe call failed: the platform is still down; calls stay paused for another ${openMs} ms.`);
  } else if (event.state === 'half-open') {
    logger.debug(fields, 'Platform calls paused long enough: letting one probe call through.');
  } else {
    logger.info(fields, 'The probe call succeeded: the platform answers again; platform calls resumed.');
  }
}
