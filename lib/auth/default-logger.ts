import type { Logger } from '../types.js';

const noop = (): void => {};

/** Used when no logger is given: errors and warnings to stderr, nothing else. */
export const consoleErrorLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: (obj: object, msg?: string) => console.error('[passport-game-platform]', msg ?? '', obj),
  error: (obj: object, msg?: string) => console.error('[passport-game-platform]', msg ?? '', obj),
});
