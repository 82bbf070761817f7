import { isPlatformError } from '../index.js';
import { ExitCode } from './exit-codes.js';
import type { ExitCodeValue } from './exit-codes.js';

/**
 * The `error` object of a failed command's `--json` output. `kind` is a
 * {@link PlatformError} kind, or `usage` / `configuration` / `not_found` /
 * `internal` for failures the CLI finds itself; `code` is the platform's code
 * or `null`.
 */
export interface CliErrorInfo {
  kind: string;
  code: number | null;
  action: string;
  message: string;
}

/** The message of anything thrown (`instanceof Error` fails across realms, e.g. under Jest). */
export function messageOf(err: unknown): string {
  if (typeof err === 'object' && err !== null && typeof (err as { message?: unknown }).message === 'string') {
    return (err as { message: string }).message;
  }
  return String(err);
}

/** A command line the CLI cannot run: exit status 2. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** Settings the CLI finds missing or invalid before any platform call: exit status 3. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError';
}

/** An error as the CLI reports it: the JSON shape and the exit status. */
export interface DescribedError {
  info: CliErrorInfo;
  exitCode: ExitCodeValue;
}

function exitCodeForKind(kind: string): ExitCodeValue {
  switch (kind) {
    case 'configuration':
      return ExitCode.CONFIGURATION;
    case 'platform_unavailable':
      return ExitCode.UNAVAILABLE;
    case 'not_found':
      return ExitCode.NOT_FOUND;
    default:
      return ExitCode.FAILURE;
  }
}

/**
 * Turns anything thrown into the CLI's error report. The message of a
 * non-library error is kept (it never holds a secret we passed), but the
 * output layer still redacts every known secret before writing.
 */
export function describeError(err: unknown): DescribedError {
  if (err instanceof UsageError) {
    return { info: { kind: 'usage', code: null, action: 'none', message: err.message }, exitCode: ExitCode.USAGE };
  }
  if (err instanceof ConfigurationError) {
    return { info: { kind: 'configuration', code: null, action: 'contact_support', message: err.message }, exitCode: ExitCode.CONFIGURATION };
  }
  if (isPlatformError(err)) {
    return {
      info: { kind: err.kind, code: err.code ?? null, action: err.action, message: err.message },
      exitCode: exitCodeForKind(err.kind),
    };
  }
  const message = messageOf(err);
  return { info: { kind: 'internal', code: null, action: 'none', message: `Unexpected error: ${message}` }, exitCode: ExitCode.FAILURE };
}
