import { GLOBAL_FLAGS_HELP } from './args.js';
import { UsageError, describeError } from './cli-errors.js';
import type { CliCommand } from './command.js';
import { PROGRAM } from './command.js';
import { doctorCommand } from './doctor.js';
import { emulatorCommand } from './emulator.js';
import { EXIT_CODES_HELP, ExitCode } from './exit-codes.js';
import type { ExitCodeValue } from './exit-codes.js';
import type { CliIo } from './io.js';
import { lookupCommand } from './lookup.js';
import { Output } from './output.js';
import { verifyCommand } from './verify.js';

const COMMANDS: readonly CliCommand[] = [doctorCommand, verifyCommand, lookupCommand, emulatorCommand];

const HELP = `Usage: ${PROGRAM} <command> [flags]

Admin tool for game servers using the game platform (passport-game-platform).
Secrets and tokens are never printed: only their SHA-256 fingerprints.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`).join('\n')}
  help [cmd]  this help, or a command's

Global flags:
${GLOBAL_FLAGS_HELP}

Settings come from PLATFORM_* environment variables or flags; see "${PROGRAM} doctor --help".

${EXIT_CODES_HELP}
`;

function findCommand(name: string): CliCommand {
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`Unknown command "${name}". Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`);
  return command;
}

async function dispatch(argv: readonly string[], out: Output, io: CliIo, seen: { command?: string }): Promise<ExitCodeValue> {
  // Global flags are all boolean, so the first non-flag word is the command.
  const index = argv.findIndex((arg) => !arg.startsWith('-'));
  const before = index === -1 ? argv : argv.slice(0, index);
  const unknown = before.find((arg) => !['--json', '--debug', '--help', '-h'].includes(arg));
  if (unknown !== undefined) throw new UsageError(`Unknown flag "${unknown}" before the command: command flags go after the command.`);
  if (index === -1) {
    if (before.includes('--help') || before.includes('-h')) {
      out.writeOut(HELP);
      return ExitCode.OK;
    }
    throw new UsageError(`No command given. Commands: ${COMMANDS.map((c) => c.name).join(', ')}.`);
  }
  const name = argv[index] ?? '';
  const rest = [...before, ...argv.slice(index + 1)];
  if (name === 'help') {
    const topic = rest.find((arg) => !arg.startsWith('-'));
    out.writeOut(topic === undefined ? HELP : findCommand(topic).help);
    return ExitCode.OK;
  }
  const command = findCommand(name);
  seen.command = command.name;
  return command.run(rest, { io, out });
}

/**
 * Runs the CLI with `argv` (the arguments after the program name) and returns
 * its exit status (see {@link ExitCode}). Never throws: unexpected errors are
 * reported as a message (with a stack under `--debug`) and exit status 1.
 *
 * @example
 * ```ts
 * const status = await runCli(['doctor', '--json'], { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env });
 * ```
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const out = new Output(io, { json: argv.includes('--json'), debug: argv.includes('--debug') });
  const seen: { command?: string } = {};
  try {
    return await dispatch(argv, out, io, seen);
  } catch (err) {
    try {
      const described = describeError(err);
      const stack = typeof err === 'object' && err !== null ? (err as { stack?: unknown }).stack : undefined;
      if (described.info.kind === 'internal' && out.options.debug && typeof stack === 'string') out.writeErr(`${stack}\n`);
      const status = out.fail(described);
      if (described.exitCode === ExitCode.USAGE) out.note(`Run "${[PROGRAM, seen.command, '--help'].filter(Boolean).join(' ')}" for usage.`);
      return status;
    } catch {
      return ExitCode.FAILURE;
    }
  }
}
