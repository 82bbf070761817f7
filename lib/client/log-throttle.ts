// The one log throttle lives with its owner, the API-token provider.
export { LogThrottle } from '../provider/log-throttle.js';
