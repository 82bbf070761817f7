import type { Logger } from '../types.js';

const noop = (): void => undefined;

/** The default logger: drops everything. */
export const silentLogger: Logger = Object.freeze({ debug: noop, info: noop, warn: noop, error: noop });
