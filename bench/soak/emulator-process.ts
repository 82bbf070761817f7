// The standalone emulator (as `npm run emulator` runs it) for the soak, exiting when the soak
// driver goes away (IPC disconnect), even if it was killed without a chance to clean up.
import { runEmulatorCli } from '../../lib/emulator/index.js';

process.on('disconnect', () => process.exit(0));
process.exitCode = await runEmulatorCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
