export { processMonotonic, monotonicFor } from './monotonic.js';
export type { MonotonicClock } from './monotonic.js';
