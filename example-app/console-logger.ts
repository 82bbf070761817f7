import type { Logger } from '../lib/types.js';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

/** Options of {@link consoleLogger}. */
export interface ConsoleLoggerOptions {
  /** Lowest level printed; default `info`. */
  level?: Level;
  /** The same message is printed at most once per window; default 60000 ms. */
  repeatWindowMs?: number;
  /** Where lines go; default `process.stderr`. */
  write?: (line: string) => void;
  now?: () => number;
}

/**
 * A one-line-per-event logger for the example app (pino-compatible shape). A
 * misconfiguration seen on every request is printed once a minute, not per
 * request. Fields are printed as JSON after the message.
 */
export function consoleLogger(options: ConsoleLoggerOptions = {}): Logger {
  const min = ORDER[options.level ?? 'info'];
  const windowMs = options.repeatWindowMs ?? 60_000;
  const write = options.write ?? ((line: string) => process.stderr.write(`${line}\n`));
  const now = options.now ?? Date.now;
  const lastSeen = new Map<string, number>();
  const log = (level: Level) => (obj: object, msg?: string): void => {
    if (ORDER[level] < min) return;
    const key = `${level}:${msg ?? ''}`;
    const seen = lastSeen.get(key);
    if (seen !== undefined && now() - seen < windowMs) return;
    if (lastSeen.size > 1000) lastSeen.clear();
    lastSeen.set(key, now());
    const fields = Object.keys(obj).length === 0 ? '' : ` ${JSON.stringify(obj)}`;
    write(`[${level}] ${msg ?? ''}${fields}`);
  };
  return { debug: log('debug'), info: log('info'), warn: log('warn'), error: log('error') };
}
