import { execFileSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { runEmulatorCli, startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { call, postJson } from '../support/emulator-http.js';
import { spawnEmulatorCli, waitForOutput, type SpawnedCli } from '../support/emulator-spawn.js';

function capture(): { io: { stdout: { write(s: string): void }; stderr: { write(s: string): void } }; out: () => string; err: () => string } {
  let out = '';
  let err = '';
  return { io: { stdout: { write: (s) => { out += s; } }, stderr: { write: (s) => { err += s; } } }, out: () => out, err: () => err };
}

describe('runEmulatorCli (in-process)', () => {
  it.each([
    [['--nope'], "Unknown option '--nope'"],
    [['--port', 'abc'], '--port must be a number from 0 to 65535, got "abc"'],
    [['--port', '70000'], '--port must be a number from 0 to 65535'],
    [['--environment', 'prod'], '--environment must be live or sandbox, got "prod"'],
    [['--identifiers', 'bigint'], '--identifiers must be number or string'],
    [['--error-status', 'x'], '--error-status must be platform or ok or http'],
    [['--seed', 'no/such/file.json'], '--seed: cannot read no/such/file.json (ENOENT)'],
    [['--seed', 'package.json'], 'seed.clients must be a non-empty array'],
    [['--seed', 'lib/emulator/cli.ts'], '--seed: lib/emulator/cli.ts is not valid JSON'],
    [['--cookie-name', 'a;b'], 'options.webCookieName must be a cookie name'],
    [['extra'], 'Unexpected argument'],
  ])('exits 2 with a clear message and no stack for %j', async (argv, message) => {
    const { io, out, err } = capture();
    expect(await runEmulatorCli(argv, io)).toBe(2);
    expect(err()).toContain(message);
    expect(err()).toContain('Usage: npm run emulator');
    expect(err()).not.toMatch(/\n\s+at /);
    expect(out()).toBe('');
  });

  it('prints usage for --help and exits 0', async () => {
    const { io, out } = capture();
    expect(await runEmulatorCli(['--help'], io)).toBe(0);
    expect(out()).toContain('--seed <file.json>');
  });

  it('exits 1 when the port is taken', async () => {
    const busy = await startEmulator();
    try {
      const { io, err } = capture();
      expect(await runEmulatorCli(['--port', String(busy.port)], io)).toBe(1);
      expect(err()).toContain('EADDRINUSE');
    } finally {
      await busy.close();
    }
  });

  it('serves with the seed and flags given, prints URL, credentials and curl, and stops on SIGINT', async () => {
    const { io, out } = capture();
    const signals = new EventEmitter();
    let emulator: Emulator | undefined;
    const done = runEmulatorCli(
      ['--port=0', '--seed', 'examples/seed.json', '--environment', 'sandbox', '--identifiers', 'string', '--error-status', 'http'],
      { ...io, signals, onReady: (e) => { emulator = e; } },
    );
    await new Promise((r) => setTimeout(r, 0));
    while (!emulator) await new Promise((r) => setTimeout(r, 10));
    expect(out().split('\n')[0]).toBe(`Platform emulator listening on ${emulator.url} (environment: sandbox)`);
    expect(out()).toContain('client_id=demo-sandbox-client client_secret=demo-sandbox-secret service_id=demo-game');
    expect(out()).toContain(`curl -s -X POST ${emulator.url}/_emulator/login`);
    const health = await call(`${emulator.url}/_emulator/health`);
    expect(health.json).toMatchObject({ environment: 'sandbox', identifiers: 'string', errorStatus: 'http' });
    const login = await postJson(`${emulator.url}/_emulator/login`, { member_no: '9007199254740993' });
    expect(login.status).toBe(200);
    signals.emit('SIGINT');
    signals.emit('SIGINT');
    expect(await done).toBe(0);
    expect(out()).toContain('emulator stopped');
    expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
    await expect(fetch(`${emulator.url}/_emulator/health`)).rejects.toThrow();
  });
});

describe('npx tsx lib/emulator/cli.ts (spawned)', () => {
  const spawned: SpawnedCli[] = [];
  afterAll(() => spawned.forEach((s) => s.stop('SIGKILL')));

  it('prints its base URL, answers, and stops on SIGTERM', async () => {
    const cli = spawnEmulatorCli(['--port', '0']);
    spawned.push(cli);
    const [, url] = await waitForOutput(cli, /listening on (http:\/\/127\.0\.0\.1:\d+)/);
    expect(cli.stdout()).toContain('curl -s -X POST');
    const res = await postJson(`${url}/_emulator/login`, { member_no: '20005061986', game_id: 'demo-game' });
    expect(res.json.expires_in).toBe(21600);
    cli.stop('SIGTERM');
    await cli.exited;
    await expect(fetch(`${url}/_emulator/health`)).rejects.toThrow();
  });

  it('exits with code 2 and no stack trace for a bad flag', async () => {
    const cli = spawnEmulatorCli(['--port', 'abc']);
    spawned.push(cli);
    expect(await cli.exited).toBe(2);
    expect(cli.stderr()).toContain('emulator: --port must be a number from 0 to 65535, got "abc"');
    expect(cli.stderr()).not.toMatch(/\n\s+at /);
  });
});

describe('the emulator banner', () => {
  it('prints an export line that, pasted into a shell, gives the app started next the PLATFORM_* variables fromEnv() needs to reach this emulator', async () => {
    const { fromEnv, PlatformClient } = await import('../../lib/index.js');
    const { io, out } = capture();
    const signals = new EventEmitter();
    let emulator: Emulator | undefined;
    const done = runEmulatorCli(['--port=0'], { ...io, signals, onReady: (e) => { emulator = e; } });
    while (emulator === undefined) await new Promise((r) => setTimeout(r, 5));
    const line = out().split('\n').find((l) => /^\s+export PLATFORM_/.test(l));
    // As a user pastes it: the shell runs the line, then starts a program (here `env`) that must see the variables.
    const shown = execFileSync('sh', ['-c', `${line ?? ''}\nenv`], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    const env = Object.fromEntries(shown.split('\n').map((l) => /^(PLATFORM_[A-Z_]+)=(.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m[1], m[2]]));
    expect(Object.keys(env).sort()).toEqual(['PLATFORM_BASE_URL', 'PLATFORM_CLIENT_ID', 'PLATFORM_CLIENT_SECRET', 'PLATFORM_GAME_ID']);
    const client = new PlatformClient(fromEnv(env));
    try {
      const { access_token } = emulator.login('20005061987');
      await expect(client.verifyUserToken(access_token)).resolves.toMatchObject({ memberNo: '20005061987' });
    } finally {
      await client.close();
      signals.emit('SIGINT');
      await done;
    }
  });
});
