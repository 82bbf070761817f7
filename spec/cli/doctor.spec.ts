import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { closedPort, emulatorEnv, demoApiToken, jsonOf, runInProcess, transcript } from './cli-harness.js';

describe('doctor', () => {
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('passes every check, issues an API token and shows only its fingerprint and expiry', async () => {
    const result = await runInProcess(['doctor'], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toContain(`✓ Platform: ${emulator.url} (from PLATFORM_BASE_URL)`);
    expect(result.stdout).toContain('✓ Client ID: demo-client (from PLATFORM_CLIENT_ID)');
    expect(result.stdout).toContain('✓ Client secret: set (hidden) (from PLATFORM_CLIENT_SECRET)');
    expect(result.stdout).toContain('✓ Game ID: demo-game (from PLATFORM_GAME_ID)');
    expect(result.stdout).toMatch(/✓ API token \(E1\): issued, fingerprint sha256:[0-9a-f]{8}, expires \d{4}-\d\d-\d\dT.*\(in 29 d 23 h\)/);
    expect(result.stdout).toContain('All checks passed.');
    expect(result.stdout).not.toContain('✗');
    expect(result.stderr).toContain('Contacting the platform');
  });

  it('answers --json with every check, the token fingerprint and expiry', async () => {
    const body = jsonOf(await runInProcess(['doctor', '--json'], { env: emulatorEnv(emulator.url) }));
    expect(body.ok).toBe(true);
    expect(body.apiToken).toEqual({ fingerprint: expect.stringMatching(/^sha256:[0-9a-f]{8}$/), expiresAt: expect.any(String) });
    expect(body.platform).toEqual({ baseUrl: emulator.url, gameId: 'demo-game' });
    expect(body.checks).toEqual(expect.arrayContaining([{ name: 'API token (E1)', ok: true, detail: expect.any(String) }]));
  });

  it('takes flags over the environment, and the secret from stdin with --client-secret-stdin', async () => {
    const env = { PLATFORM_ENV: 'sandbox', PLATFORM_CLIENT_ID: 'wrong', PLATFORM_GAME_ID: 'wrong' };
    const result = await runInProcess(
      ['doctor', '--base-url', emulator.url, '--client-id', 'demo-client', '--game-id', 'demo-game', '--instance-id', 'cli-1', '--client-secret-stdin', '--timeout-ms', '1000'],
      { env, stdin: 'demo-secret\n' },
    );
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toContain('✓ Client secret: set (hidden) (from --client-secret-stdin)');
    expect(result.stdout).toContain('✓ Instance ID: cli-1 (from --instance-id)');
    expect(emulator.requests({ endpoint: 'E1' }).at(-1)?.instanceId).toBe('cli-1');
  });

  it('probes E3 with --probe-member-no', async () => {
    const result = await runInProcess(['doctor', '--probe-member-no', '20005061986'], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toContain('✓ Probe lookup (E3): API token accepted; member_no 20005061986, guid 200000000397');
  });

  it('lists each missing setting with its fix, calls nobody and exits 3', async () => {
    emulator.clearRequests();
    const result = await runInProcess(['doctor'], { env: { PLATFORM_CLIENT_ID: 'demo-client' } });
    expect(result.status).toBe(ExitCode.CONFIGURATION);
    expect(result.stdout).toContain('✗ Platform: not set\n  Fix: set PLATFORM_ENV=live or PLATFORM_ENV=sandbox, or PLATFORM_BASE_URL');
    expect(result.stdout).toContain('✗ Client secret: not set\n  Fix: set PLATFORM_CLIENT_SECRET, or pipe it in with --client-secret-stdin');
    expect(result.stdout).toContain('✗ Game ID: not set\n  Fix: set PLATFORM_GAME_ID');
    expect(result.stdout).toContain('✓ Client ID: demo-client');
    expect(emulator.requests()).toHaveLength(0);
  });

  it('flags a bad PLATFORM_ENV, a bad timeout and a Live host labelled sandbox', async () => {
    const bad = await runInProcess(['doctor', '--json'], { env: { ...emulatorEnv(emulator.url), PLATFORM_BASE_URL: '', PLATFORM_ENV: 'prod', PLATFORM_TIMEOUT_MS: 'soon' } });
    expect(bad.status).toBe(ExitCode.CONFIGURATION);
    const body = jsonOf(bad);
    expect(body.error).toEqual({ kind: 'configuration', code: null, action: 'contact_support', message: expect.any(String) });
    expect(body.checks).toEqual(expect.arrayContaining([
      { name: 'Platform', ok: false, detail: 'PLATFORM_ENV is "prod"', fix: 'set PLATFORM_ENV to live or sandbox.' },
      expect.objectContaining({ name: 'Timeout', ok: false, detail: 'PLATFORM_TIMEOUT_MS is "soon"' }),
    ]));
    const mixed = await runInProcess(['doctor'], { env: { ...emulatorEnv('https://api.onstove.com'), PLATFORM_ENV: 'sandbox' } });
    expect(mixed.status).toBe(ExitCode.CONFIGURATION);
    expect(mixed.stdout).toContain('✗ Platform: PLATFORM_BASE_URL is the live host but PLATFORM_ENV says sandbox');
  });

  it('refuses a --timeout-ms the client would reject (one rule set: above 120000 ms)', async () => {
    const body = jsonOf(await runInProcess(['doctor', '--json', '--timeout-ms', '600000'], { env: emulatorEnv(emulator.url) }));
    expect(body.checks).toEqual(expect.arrayContaining([
      { name: 'Timeout', ok: false, detail: '--timeout-ms is "600000"', fix: 'set --timeout-ms to a whole number of milliseconds from 1 to 120000, or unset it for the default.' },
    ]));
    expect(emulator.requests()).toHaveLength(0);
  });

  it('reports 40105 (wrong secret) with the fix and exits 3', async () => {
    const result = await runInProcess(['doctor'], { env: { ...emulatorEnv(emulator.url), PLATFORM_CLIENT_SECRET: 'not-the-secret' } });
    expect(result.status).toBe(ExitCode.CONFIGURATION);
    expect(result.stdout).toContain('✗ API token (E1): The platform says client_id and client_secret do not match (40105)');
    expect(result.stdout).toContain('  Fix: use the client_id and client_secret issued for this environment');
    expect(result.stdout).toContain('Doctor found a problem (exit status 3, platform code 40105).');
  });

  it('reports 40105 in --json with kind, code and action', async () => {
    const body = jsonOf(await runInProcess(['doctor', '--json'], { env: { ...emulatorEnv(emulator.url), PLATFORM_CLIENT_SECRET: 'not-the-secret' } }));
    expect(body).toMatchObject({ ok: false, error: { kind: 'configuration', code: 40105, action: 'contact_support', message: expect.stringContaining('40105') } });
  });

  it('reports 41002 (a Game ID other than the client\'s service_id) and exits 3', async () => {
    const result = await runInProcess(['doctor', '--json'], { env: emulatorEnv(emulator.url, { PLATFORM_GAME_ID: 'other-game' }) });
    expect(result.status).toBe(ExitCode.CONFIGURATION);
    const body = jsonOf(result);
    expect(body.error).toMatchObject({ kind: 'configuration', code: 41002 });
    expect(body.checks).toEqual(expect.arrayContaining([
      expect.objectContaining({ name: 'API token (E1)', ok: false, fix: expect.stringContaining('PLATFORM_GAME_ID') }),
    ]));
  });

  it('reports an unreachable platform with the fix and exits 4', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    const result = await runInProcess(['doctor'], { env: emulatorEnv(url, { PLATFORM_TIMEOUT_MS: '300' }) });
    expect(result.status).toBe(ExitCode.UNAVAILABLE);
    expect(result.stdout).toContain('✗ API token (E1): The platform');
    expect(result.stdout).toContain('  Fix: check the platform address');
  });

  it('reports a platform that does not answer in time and exits 4', async () => {
    emulator.injectFault({ endpoint: 'E1', type: 'hang', count: 10 });
    try {
      const result = await runInProcess(['doctor', '--json'], { env: emulatorEnv(emulator.url, { PLATFORM_TIMEOUT_MS: '100' }) });
      expect(result.status).toBe(ExitCode.UNAVAILABLE);
      expect(jsonOf(result).error).toMatchObject({ kind: 'platform_unavailable', action: 'retry_later' });
    } finally {
      emulator.clearFaults();
    }
  });

  it('never printed the client secret or the API token', async () => {
    const apiToken = await demoApiToken(emulator);
    const all = transcript.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    expect(all).not.toContain('demo-secret');
    expect(all).not.toContain(apiToken);
  });
});
