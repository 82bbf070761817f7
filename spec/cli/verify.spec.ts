import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { closedPort, emulatorEnv, jsonOf, runInProcess, transcript, demoApiToken } from './cli-harness.js';

describe('verify', () => {
  let emulator: Emulator;
  const userTokens: string[] = [];
  const login = (memberNo: string): string => {
    const token = emulator.login(memberNo, 'demo-game').access_token;
    userTokens.push(token);
    return token;
  };

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('prints member_no and guid of a valid token, the token only as a fingerprint', async () => {
    const token = login('20005061986');
    const result = await runInProcess(['verify', token], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toMatch(/^✓ Valid user token sha256:[0-9a-f]{8}\n {2}member_no: 20005061986\n {2}guid: {6}200000000397\n$/);
  });

  it('answers --json with the user and the token fingerprint', async () => {
    const token = login('9007199254740993');
    const body = jsonOf(await runInProcess(['verify', '--json', token], { env: emulatorEnv(emulator.url) }));
    expect(body).toEqual({ ok: true, tokenFingerprint: expect.stringMatching(/^sha256:[0-9a-f]{8}$/), user: { memberNo: '9007199254740993', guid: '9007199254740995' } });
  });

  it('reads the token from stdin with "-"', async () => {
    const token = login('20005061987');
    const body = jsonOf(await runInProcess(['verify', '-', '--json'], { env: emulatorEnv(emulator.url), stdin: `${token}\n` }));
    expect(body).toMatchObject({ ok: true, user: { memberNo: '20005061987', guid: '200000000401' } });
  });

  it('reads the token from stdin when no argument is given and stdin is piped', async () => {
    const token = login('20005061988');
    const result = await runInProcess(['verify'], { env: emulatorEnv(emulator.url), stdin: token });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toContain('member_no: 20005061988');
    expect(result.stdout).toContain('guid:      none (terms of service not accepted)');
  });

  it('explains 40000 (a logged-out token) and exits 1', async () => {
    const token = login('20005061986');
    emulator.logout(token);
    const result = await runInProcess(['verify', token], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.FAILURE);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/✗ User token sha256:[0-9a-f]{8} was not accepted\.\n {2}The platform rejected/);
    expect(result.stderr).toContain('The platform rejected the user token (40000): it is wrong, expired, refreshed or logged out; the client must log in again.');
    expect(result.stderr).toContain('platform code 40000; kind invalid_token; client action: relogin');
  });

  it('answers 40000 for an expired token in --json', async () => {
    const token = login('20005061987');
    emulator.advanceClock(6 * 3600_000 + 1000);
    const body = jsonOf(await runInProcess(['verify', '--json', token], { env: emulatorEnv(emulator.url) }));
    expect(body).toEqual({
      ok: false,
      tokenFingerprint: expect.stringMatching(/^sha256:/),
      error: { kind: 'invalid_token', code: 40000, action: 'relogin', message: expect.stringContaining('40000') },
    });
  });

  it('logs the client\'s call events under --debug, fingerprints only', async () => {
    const token = login('20005061986');
    const result = await runInProcess(['verify', '--debug', token], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stderr).toMatch(/\[debug\] token \{"type":"issued","fingerprint":"[0-9a-f]{8}"/);
    expect(result.stderr).toMatch(/\[debug\] call \{"endpoint":"E2","outcome":"success"/);
  });

  it('verifies a web token with --web', async () => {
    const token = emulator.issueWebToken('20005061987');
    userTokens.push(token);
    const body = jsonOf(await runInProcess(['verify', '--web', '--json', '-'], { env: emulatorEnv(emulator.url), stdin: token }));
    expect(body).toMatchObject({ ok: true, user: { memberNo: '20005061987', guid: '200000000401' } });
  });

  it('takes a long argument starting with "-" for the token, and accepts a token after "--"', async () => {
    const dashToken = `-${'A'.repeat(40)}`;
    userTokens.push(dashToken);
    const dash = await runInProcess(['verify', '--json', dashToken], { env: emulatorEnv(emulator.url) });
    expect(dash.status).toBe(ExitCode.FAILURE);
    expect(jsonOf(dash).error).toMatchObject({ kind: 'invalid_token', code: 40000 });
    const token = login('20005061986');
    const afterDashes = await runInProcess(['verify', '--json', '--', token], { env: emulatorEnv(emulator.url) });
    expect(jsonOf(afterDashes)).toMatchObject({ ok: true, user: { memberNo: '20005061986' } });
  });

  it('explains 46217 (device not registered) and exits 1', async () => {
    const token = login('20005061989');
    const result = await runInProcess(['verify', '--json', token], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.FAILURE);
    expect(jsonOf(result).error).toEqual({ kind: 'device_not_registered', code: 46217, action: 'register_device', message: 'The member must register this device before playing (46217).' });
  });

  it('exits 3 on 40105 and 4 when the platform is unreachable', async () => {
    const token = login('20005061986');
    const wrong = await runInProcess(['verify', '--json', token], { env: emulatorEnv(emulator.url, { PLATFORM_CLIENT_SECRET: 'nope-nope' }) });
    expect(wrong.status).toBe(ExitCode.CONFIGURATION);
    expect(jsonOf(wrong).error).toMatchObject({ kind: 'configuration', code: 40105 });
    const down = await runInProcess(['verify', token], { env: emulatorEnv(`http://127.0.0.1:${await closedPort()}`, { PLATFORM_TIMEOUT_MS: '200' }) });
    expect(down.status).toBe(ExitCode.UNAVAILABLE);
    expect(down.stderr).toContain('kind platform_unavailable; client action: retry_later');
  });

  it('exits 3 with the missing setting named when the configuration is incomplete', async () => {
    const result = await runInProcess(['verify', '--json', 'some-user-token'], { env: { PLATFORM_BASE_URL: emulator.url } });
    expect(result.status).toBe(ExitCode.CONFIGURATION);
    expect(jsonOf(result).error).toMatchObject({ kind: 'configuration', message: expect.stringContaining('Client ID: not set; fix: set PLATFORM_CLIENT_ID') });
  });

  it('is a usage error without a token, with an empty stdin, or with two stdin readers', async () => {
    const none = await runInProcess(['verify'], { env: emulatorEnv(emulator.url) });
    expect(none.status).toBe(ExitCode.USAGE);
    expect(none.stderr).toContain('Give the user token');
    const empty = await runInProcess(['verify', '-'], { env: emulatorEnv(emulator.url), stdin: '\n' });
    expect(empty.status).toBe(ExitCode.USAGE);
    expect(empty.stderr).toContain('stdin was empty');
    const both = await runInProcess(['verify', '-', '--client-secret-stdin', '--json'], { env: emulatorEnv(emulator.url), stdin: 'x' });
    expect(both.status).toBe(ExitCode.USAGE);
    expect(jsonOf(both).error).toMatchObject({ kind: 'usage', code: null, action: 'none' });
  });

  it('never printed the client secret, the API token or a full user token', async () => {
    const apiToken = await demoApiToken(emulator);
    const all = transcript.join('\n');
    expect(userTokens.length).toBeGreaterThan(5);
    expect(all).not.toContain('demo-secret');
    expect(all).not.toContain(apiToken);
    for (const token of userTokens) expect(all).not.toContain(token);
  });
});
