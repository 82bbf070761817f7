import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { EXIT_CODES_HELP, ExitCode } from '../../lib/cli/exit-codes.js';
import { runCli } from '../../lib/cli/run-cli.js';
import { jsonOf, runInProcess } from './cli-harness.js';

const exec = promisify(execFile);

describe('runCli', () => {
  it('prints the command list and exit codes with --help, and exits 0', async () => {
    const result = await runInProcess(['--help']);
    expect(result.status).toBe(ExitCode.OK);
    for (const name of ['doctor', 'verify', 'lookup', 'emulator']) expect(result.stdout).toContain(`  ${name} `);
    expect(result.stdout).toContain(EXIT_CODES_HELP);
  });

  it.each(['doctor', 'verify', 'lookup', 'emulator'])('prints help for %s', async (name) => {
    const viaFlag = await runInProcess([name, '--help']);
    expect(viaFlag.status).toBe(ExitCode.OK);
    expect(viaFlag.stdout).toContain(`Usage: passport-game-platform ${name}`);
    const viaHelp = await runInProcess(['help', name]);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
  });

  it('exits 2 with a hint for no command, an unknown command or an unknown flag', async () => {
    for (const argv of [[], ['frobnicate'], ['doctor', '--frob'], ['--base-url', 'x', 'doctor'], ['lookup', 'extra']]) {
      const result = await runInProcess(argv);
      expect(result.status).toBe(ExitCode.USAGE);
      expect(result.stderr).toContain('--help" for usage.');
    }
  });

  it('answers usage errors in --json with the stable error shape', async () => {
    const body = jsonOf(await runInProcess(['frobnicate', '--json']));
    expect(body).toEqual({ ok: false, error: { kind: 'usage', code: null, action: 'none', message: 'Unknown command "frobnicate". Commands: doctor, verify, lookup, emulator.' } });
  });

  it('refuses a client secret given as a flag, without echoing it', async () => {
    const result = await runInProcess(['doctor', '--client-secret=hunter2-secret']);
    expect(result.status).toBe(ExitCode.USAGE);
    expect(result.stderr).toContain('--client-secret is not accepted');
    expect(result.stderr).not.toContain('hunter2-secret');
  });

  it('never echoes a long unknown argument (it may be a token) in a usage error', async () => {
    const secretish = `--${'x'.repeat(40)}`;
    const result = await runInProcess(['doctor', secretish, '--json']);
    expect(result.status).toBe(ExitCode.USAGE);
    expect(result.stdout).toContain('<a long argument>');
    expect(result.stdout).not.toContain(secretish);
  });

  it('reports an unexpected error as one line and exit 1, with the stack only under --debug', async () => {
    const failing = async function* (): AsyncGenerator<string> {
      yield* [];
      throw new Error('stdin broke');
    };
    const run = async (argv: string[]): Promise<{ status: number; stderr: string }> => {
      const stderr: string[] = [];
      const status = await runCli(argv, {
        stdout: { write: () => true },
        stderr: { write: (t: string) => stderr.push(t) },
        stdin: Object.assign(failing(), { isTTY: false }),
        env: {},
      });
      return { status, stderr: stderr.join('') };
    };
    const plain = await run(['verify', '-']);
    expect(plain.status).toBe(ExitCode.FAILURE);
    expect(plain.stderr).toBe('✗ Unexpected error: stdin broke\n  (kind internal)\n');
    const debug = await run(['verify', '-', '--debug']);
    expect(debug.stderr).toMatch(/^Error: stdin broke\n\s+at /);
  });

  it('shows a spinner on a terminal stderr and clears it', async () => {
    const result = await runInProcess(['doctor'], {
      env: { PLATFORM_BASE_URL: 'http://127.0.0.1:9', PLATFORM_CLIENT_ID: 'a', PLATFORM_CLIENT_SECRET: 'b', PLATFORM_GAME_ID: 'c', PLATFORM_TIMEOUT_MS: '100' },
      stderrTTY: true,
    });
    expect(result.status).toBe(ExitCode.UNAVAILABLE);
    expect(result.stderr).toMatch(/^\r⠋ Contacting the platform/);
    expect(result.stderr).toContain('\r\x1b[K');
  });

  it('runs as a real process: npx tsx lib/cli/main.ts --help exits 0', async () => {
    const { stdout } = await exec('npx', ['tsx', 'lib/cli/main.ts', '--help'], { cwd: process.cwd(), env: { ...process.env, NODE_OPTIONS: '' } });
    expect(stdout).toContain('Usage: passport-game-platform <command>');
  }, 30_000);

  it('sets the exit status of a real process', async () => {
    await expect(exec('npx', ['tsx', 'lib/cli/main.ts', 'frobnicate'], { cwd: process.cwd(), env: { ...process.env, NODE_OPTIONS: '' } }))
      .rejects.toMatchObject({ code: ExitCode.USAGE });
  }, 30_000);
});
