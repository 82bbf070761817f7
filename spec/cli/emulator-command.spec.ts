import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { emulatorEnv, runInProcess } from './cli-harness.js';

describe('emulator command', () => {
  it('runs the standalone emulator, which doctor can use, and stops cleanly on SIGINT', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'lib/cli/main.ts', 'emulator', '--port', '0', '--environment', 'sandbox'], {
      cwd: process.cwd(),
      env: { ...process.env, NODE_OPTIONS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8');
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: string) => {
        stdout += chunk;
        const match = /listening on (http:\/\/\S+) \(environment: sandbox\)/.exec(stdout);
        if (match?.[1]) resolve(match[1]);
      });
      child.once('exit', (code) => reject(new Error(`emulator exited early (${code}): ${stdout}`)));
    });
    try {
      const env = emulatorEnv(url, { PLATFORM_CLIENT_ID: 'demo-sandbox-client', PLATFORM_CLIENT_SECRET: 'demo-sandbox-secret', PLATFORM_ENV: 'sandbox' });
      const doctor = await runInProcess(['doctor'], { env });
      expect(doctor.status).toBe(ExitCode.OK);
      expect(doctor.stdout).toContain(`✓ Platform: ${url} (from PLATFORM_BASE_URL, sandbox credentials (PLATFORM_ENV))`);
    } finally {
      const exited = once(child, 'exit');
      child.kill('SIGINT');
      const [code] = await exited;
      expect(code).toBe(0);
    }
    expect(stdout).toContain('emulator stopped');
  }, 30_000);

  it('exits 2 on a bad emulator flag', async () => {
    const result = await runInProcess(['emulator', '--port', 'lots']);
    expect(result.status).toBe(ExitCode.USAGE);
    expect(result.stderr).toContain('--port must be a number');
  });
});
