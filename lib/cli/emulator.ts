import type { CliCommand, CommandContext } from './command.js';
import { PROGRAM } from './command.js';
import { ExitCode } from './exit-codes.js';
import type { ExitCodeValue } from './exit-codes.js';

const HELP = `Usage: ${PROGRAM} emulator [--port N] [--seed FILE] [--host H] [--environment live|sandbox] [--identifiers number|string]

Runs the platform emulator standalone (E1, E2, E3, the web token route and the
test-control API), prints its base URL (first line), its development
credentials and ready curl commands, and stays up until Ctrl-C (SIGINT/SIGTERM).
For development and tests only: never point production at it.

Flags:
  --port N                      listen port (default 4010; 0 = any free port)
  --seed FILE                   seed JSON: clients and members (default: the built-in demo seed)
  --host H                      listen address (default 127.0.0.1)
  --environment live|sandbox    which credential set is valid (default live)
  --identifiers number|string   how member_no/guid are written in answers (default number)
  --error-status platform|ok|http  HTTP status style of error codes (default platform)
  --cookie-name NAME            web token cookie name (default SUAT)
  -h, --help                    this help

Exit status: 0 after a clean stop, 2 usage error, 1 failure to start.
`;

async function run(argv: readonly string[], ctx: CommandContext): Promise<ExitCodeValue> {
  if (argv.includes('--help') || argv.includes('-h')) {
    ctx.out.writeOut(HELP);
    return ExitCode.OK;
  }
  // Loaded on demand: the other commands never load the emulator.
  const { runEmulatorCli } = await import('../emulator/index.js');
  const args = argv.filter((arg) => arg !== '--debug' && arg !== '--json');
  const status = await runEmulatorCli(args, { stdout: ctx.io.stdout, stderr: ctx.io.stderr });
  return status === ExitCode.USAGE ? ExitCode.USAGE : status === ExitCode.OK ? ExitCode.OK : ExitCode.FAILURE;
}

/** `emulator`: the standalone platform emulator. */
export const emulatorCommand: CliCommand = {
  name: 'emulator',
  summary: 'run the platform emulator standalone (--port, --seed, --host, --environment, --identifiers)',
  help: HELP,
  run,
};
