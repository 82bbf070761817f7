import { parseArgs } from 'node:util';
import type { ParseArgsConfig } from 'node:util';
import { UsageError, messageOf } from './cli-errors.js';

/** Flag definitions in `node:util` `parseArgs` form. */
export type FlagSpec = NonNullable<ParseArgsConfig['options']>;

/** Flags every command accepts. */
export const GLOBAL_FLAGS = {
  json: { type: 'boolean' },
  debug: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies FlagSpec;

/** Help lines of {@link GLOBAL_FLAGS}. */
export const GLOBAL_FLAGS_HELP = `  --json                 one JSON object on stdout: {"ok":true,...} or {"ok":false,"error":{kind,code,action,message}}
  --debug                stack traces of unexpected errors and the client's call events on stderr
  -h, --help             this help`;

/** Parsed flags (string or boolean values) and positionals of one command line. */
export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * Parses a command's arguments strictly (unknown flags are usage errors),
 * with the global flags added. `--` ends the flags, for a user token that
 * starts with `-`.
 */
export function parseCommandArgs(argv: readonly string[], flags: FlagSpec, maxPositionals: number): ParsedArgs {
  rejectPlainSecretFlag(argv);
  let parsed: ParsedArgs;
  try {
    const result = parseArgs({ args: [...argv], options: { ...GLOBAL_FLAGS, ...flags }, strict: true, allowPositionals: true });
    parsed = { values: result.values, positionals: result.positionals };
  } catch (err) {
    throw new UsageError(hideLongArguments(messageOf(err), argv));
  }
  if (parsed.positionals.length > maxPositionals) {
    throw new UsageError(maxPositionals === 0 ? 'This command takes no arguments, only flags.' : `Too many arguments (at most ${maxPositionals}).`);
  }
  return parsed;
}

// A secret on the command line lands in shell history and `ps`: refuse it
// before parseArgs can echo it back in an "unknown option" message.
function rejectPlainSecretFlag(argv: readonly string[]): void {
  for (const arg of argv) {
    if (arg === '--') return;
    if (arg === '--client-secret' || arg.startsWith('--client-secret=')) {
      throw new UsageError('--client-secret is not accepted: a secret on the command line ends up in shell history and process listings. Set PLATFORM_CLIENT_SECRET, or pipe it in with --client-secret-stdin.');
    }
  }
}

/** Arguments at least this long are never echoed in messages: they may be tokens. */
export const LONG_ARGUMENT_LENGTH = 32;

// parseArgs echoes an unknown option: a user token starting with "-" must
// not come back in the message.
function hideLongArguments(message: string, argv: readonly string[]): string {
  let out = message;
  for (const arg of argv) {
    if (arg.length >= LONG_ARGUMENT_LENGTH) out = out.split(arg).join('<a long argument>');
  }
  return out;
}

/**
 * Moves arguments that start with "-" but are no known flag and are long
 * enough to be a token (base64url tokens may start with "-") after `--`, so
 * `verify <token>` works for every token. Short unknown flags stay put and
 * remain usage errors.
 */
export function protectDashTokens(argv: readonly string[], flags: FlagSpec): string[] {
  const end = argv.indexOf('--');
  const head = end === -1 ? [...argv] : argv.slice(0, end);
  const tail = end === -1 ? [] : argv.slice(end + 1);
  const known = new Set(Object.keys({ ...GLOBAL_FLAGS, ...flags }));
  const isToken = (arg: string): boolean => {
    if (!arg.startsWith('-') || arg === '-' || arg.length < LONG_ARGUMENT_LENGTH) return false;
    return !(arg.startsWith('--') && known.has(arg.slice(2).split('=')[0] ?? ''));
  };
  const tokens = head.filter(isToken);
  if (tokens.length === 0) return [...argv];
  return [...head.filter((arg) => !isToken(arg)), '--', ...tokens, ...tail];
}

/** A string flag's value, or `undefined`. */
export function stringFlag(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A boolean flag's value. */
export function booleanFlag(values: ParsedArgs['values'], name: string): boolean {
  return values[name] === true;
}

/** True for a non-empty string of decimal digits (member_no, guid). */
export function isDigits(value: string): boolean {
  return /^[0-9]{1,40}$/.test(value);
}
