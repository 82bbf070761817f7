import type { Logger } from '../../lib/types.js';

/** One line a {@link recordingLogger} kept. */
export interface LogLine {
  level: 'debug' | 'info' | 'warn' | 'error';
  obj: object;
  /** The message, `''` when the call gave none. */
  msg: string;
}

/** A RecordingLogger: a pino-compatible logger that keeps every line. */
export type RecordingLogger = Logger & { lines: LogLine[]; at(level: LogLine['level']): LogLine[] };

/** A logger that keeps every line, for assertions (and keeps test output quiet). */
export function recordingLogger(): RecordingLogger {
  const lines: LogLine[] = [];
  const log = (level: LogLine['level']) => (obj: object, msg?: string): void => {
    lines.push({ level, obj, msg: msg ?? '' });
  };
  return {
    lines,
    at: (level) => lines.filter((line) => line.level === level),
    debug: log('debug'),
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
  };
}
