import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { ExitCode } from '../../lib/cli/exit-codes.js';
import { emulatorEnv, demoApiToken, jsonOf, runInProcess, transcript } from './cli-harness.js';

describe('lookup', () => {
  let emulator: Emulator;

  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, identifiers: 'string' });
  });
  afterAll(async () => {
    await emulator.close();
  });

  it('finds a member by member_no', async () => {
    const result = await runInProcess(['lookup', '--member-no', '20005061986'], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.OK);
    expect(result.stdout).toBe('✓ Member found (member_no 20005061986)\n  member_no: 20005061986\n  guid:      200000000397\n');
  });

  it('finds a member by guid, in --json', async () => {
    const body = jsonOf(await runInProcess(['lookup', '--guid', '9007199254740995', '--json'], { env: emulatorEnv(emulator.url) }));
    expect(body).toEqual({ ok: true, query: { guid: '9007199254740995' }, user: { memberNo: '9007199254740993', guid: '9007199254740995' } });
  });

  it('shows a member without a guid', async () => {
    const body = jsonOf(await runInProcess(['lookup', '--member-no', '20005061988', '--json'], { env: emulatorEnv(emulator.url) }));
    expect(body).toMatchObject({ ok: true, user: { memberNo: '20005061988', guid: null } });
  });

  it('exits 5 when no such member exists', async () => {
    const result = await runInProcess(['lookup', '--member-no', '1'], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.NOT_FOUND);
    expect(result.stderr).toContain('✗ No member with member_no 1 for game demo-game.');
    const body = jsonOf(await runInProcess(['lookup', '--guid', '1', '--json'], { env: emulatorEnv(emulator.url) }));
    expect(body).toEqual({ ok: false, query: { guid: '1' }, error: { kind: 'not_found', code: null, action: 'none', message: 'No member with guid 1 for game demo-game.' } });
  });

  it('exits 3 on 41002 from a platform that issued the token for another game', async () => {
    emulator.injectFault({ endpoint: 'E3', type: 'code', code: 41002 });
    const result = await runInProcess(['lookup', '--member-no', '20005061986', '--json'], { env: emulatorEnv(emulator.url) });
    expect(result.status).toBe(ExitCode.CONFIGURATION);
    expect(jsonOf(result).error).toMatchObject({ kind: 'configuration', code: 41002, action: 'contact_support' });
  });

  it('exits 4 when the platform keeps failing with 5xx', async () => {
    emulator.injectFault({ endpoint: 'E3', type: 'http5xx', count: 10 });
    try {
      const result = await runInProcess(['lookup', '--member-no', '20005061986'], { env: emulatorEnv(emulator.url) });
      expect(result.status).toBe(ExitCode.UNAVAILABLE);
    } finally {
      emulator.clearFaults();
    }
  });

  it('is a usage error without exactly one well-formed query', async () => {
    const env = emulatorEnv(emulator.url);
    for (const argv of [['lookup'], ['lookup', '--member-no', '1', '--guid', '2'], ['lookup', '--member-no', 'abc'], ['lookup', '--member-no']]) {
      const result = await runInProcess([...argv, '--json'], { env });
      expect(result.status).toBe(ExitCode.USAGE);
      expect(jsonOf(result).error).toMatchObject({ kind: 'usage', code: null });
    }
  });

  it('never printed the client secret or the API token', async () => {
    const apiToken = await demoApiToken(emulator);
    const all = transcript.join('\n');
    expect(all).not.toContain('demo-secret');
    expect(all).not.toContain(apiToken);
  });
});
