export { LogThrottle } from './log-throttle.js';
export { silentLogger } from './silent-logger.js';
