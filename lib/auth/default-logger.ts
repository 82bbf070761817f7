import type { Logger } from '../types.js';

const noop = (): void => {};

/** Used when no logger is given: errors and warnings to stderr, nothing else. */
export const consoleErrorLogger: Logger = Object.freeze({
  debug: noop,
  info: noop,
  warn: (obj: object, msg?: string) => console.error('[passport-game-platform]', msg ?? '', obj),
  error: (obj: object, msg?: string) => console.error('[passport-game-platform]', msg ?? '', obj),
});

/**
 * The application's logger (or {@link consoleErrorLogger}) behind a guard: a
 * logger that throws loses that line, never the request it was logging for.
 */
export function guardedLogger(logger: Logger | undefined): Logger {
  const target = logger ?? consoleErrorLogger;
  const call = (level: keyof Logger) => (obj: object, msg?: string): void => {
    try {
      target[level](obj, msg);
    } catch {
      // Nowhere left to report it: the logger is the reporting channel.
    }
  };
  return Object.freeze({ debug: call('debug'), info: call('info'), warn: call('warn'), error: call('error') });
}
