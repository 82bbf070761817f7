import type { ExitCodeValue } from './exit-codes.js';
import type { CliIo } from './io.js';
import type { Output } from './output.js';

/** What a command runs with. */
export interface CommandContext {
  io: CliIo;
  out: Output;
}

/** One CLI command: its name, help and entry point. */
export interface CliCommand {
  name: string;
  /** One line for the command list. */
  summary: string;
  /** Full `--help` text. */
  help: string;
  /** Runs with the arguments after the command name (global flags included). */
  run(argv: readonly string[], ctx: CommandContext): Promise<ExitCodeValue>;
}

/** The program name shown in help and hints. */
export const PROGRAM = 'passport-game-platform';

/** Writes a command's help when `--help` was given; true when it did (the command then ends). */
export function wroteHelp(values: { help?: unknown }, ctx: CommandContext, help: string): boolean {
  if (values.help !== true) return false;
  ctx.out.writeOut(help);
  return true;
}
