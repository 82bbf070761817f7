/**
 * Standalone platform emulator: `npm run emulator -- --port 4010 --seed seed.json`.
 * See {@link runEmulatorCli} for flags and exit codes.
 */
import { runEmulatorCli } from './run-cli.js';

process.exitCode = await runEmulatorCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
