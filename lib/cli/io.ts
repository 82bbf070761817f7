import { UsageError } from './cli-errors.js';

/** A place the CLI writes to: `process.stdout`, `process.stderr`, or a test double. */
export interface CliWritable {
  write(chunk: string): unknown;
  /** True when a terminal is attached (progress spinner, not plain lines). */
  isTTY?: boolean;
}

/** Where the CLI reads piped input (a user token, a client secret). */
export type CliReadable = AsyncIterable<string | Uint8Array> & { isTTY?: boolean };

/**
 * The CLI's whole world: streams and environment. `runCli` touches nothing
 * else of `process`, so tests run it in-process with captured output.
 *
 * @example
 * ```ts
 * await runCli(['doctor'], { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
 * ```
 */
export interface CliIo {
  stdout: CliWritable;
  stderr: CliWritable;
  /** Absent or a TTY: nothing is piped in. */
  stdin?: CliReadable;
  env: Record<string, string | undefined>;
}

/** Largest piped input accepted (tokens are at most 4096 characters). */
export const MAX_STDIN_BYTES = 64 * 1024;

/** True when input is piped in (stdin exists and is not a terminal). */
export function hasPipedStdin(io: CliIo): boolean {
  return io.stdin !== undefined && io.stdin.isTTY !== true;
}

/**
 * Reads the first line of piped stdin, trimmed. Throws a {@link UsageError}
 * naming `what` when nothing usable was piped in.
 */
export async function readStdinLine(io: CliIo, what: string): Promise<string> {
  if (!io.stdin || io.stdin.isTTY === true) {
    throw new UsageError(`Expected ${what} on stdin, but stdin is a terminal: pipe it in (for example: printenv VAR | passport-game-platform ...).`);
  }
  const decoder = new TextDecoder();
  let text = '';
  for await (const chunk of io.stdin) {
    text += typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
    if (text.length > MAX_STDIN_BYTES) throw new UsageError(`The ${what} read from stdin is longer than ${MAX_STDIN_BYTES} characters.`);
  }
  text += decoder.decode();
  const line = (text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '').trim();
  if (line === '') throw new UsageError(`Expected ${what} on stdin, but stdin was empty.`);
  return line;
}
