import { ApiTokenProvider } from '../../lib/index.js';
import { CONFIGURATION_BACKOFF_MS } from '../../lib/platform-call/index.js';
import type { PlatformConfig, TokenEvent } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { recordingLogger, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('API token configuration failures', () => {
  let emulator: Emulator;
  const open: ApiTokenProvider[] = [];
  const e1Count = (): number => emulator.requests({ endpoint: 'E1' }).length;
  const provider = (overrides: Partial<PlatformConfig>): ApiTokenProvider => {
    const p = new ApiTokenProvider(configFor(emulator, overrides));
    open.push(p);
    return p;
  };
  beforeEach(async () => {
    emulator = await startTestEmulator({ clock: 'frozen' });
  });
  afterEach(async () => {
    for (const p of open.splice(0)) p.close();
    await emulator.close();
  });

  it('turns 40105 into one configuration error, one log line, and no E1 call until the backoff ends', async () => {
    const logger = recordingLogger();
    const p = provider({ clientSecret: 'wrong-secret', logger });
    const events: TokenEvent[] = [];
    p.on('token', (event) => events.push(event));
    const error = expectPlatformError(await rejectionOf(() => p.getToken()), 'configuration', 500);
    expect([error.code, error.action]).toEqual([40105, 'contact_support']);
    expect(error.message).toContain('PLATFORM_CLIENT_SECRET');
    for (let i = 0; i < 5; i += 1) expect(await rejectionOf(() => p.getToken())).toBe(error);
    expect(e1Count()).toBe(1);
    expect(logger.at('error')).toHaveLength(1);
    expect(events).toEqual([{ type: 'failed', durationMs: expect.any(Number), code: 40105, kind: 'configuration' }]);
    emulator.advanceClock(CONFIGURATION_BACKOFF_MS);
    expectPlatformError(await rejectionOf(() => p.getToken()), 'configuration');
    expect([e1Count(), logger.at('error').length]).toEqual([2, 2]);
  });

  it('answers 40105 for keys of the other environment', async () => {
    const p = provider({ clientId: 'demo-sandbox-client', clientSecret: 'demo-sandbox-secret' });
    expect(expectPlatformError(await rejectionOf(() => p.getToken()), 'configuration').code).toBe(40105);
  });

  it('answers 41002 as a configuration error when the Game ID is not the credentials\' service_id', async () => {
    const p = provider({ gameId: 'other-game' });
    expect(expectPlatformError(await rejectionOf(() => p.getToken()), 'configuration').code).toBe(41002);
  });

  // A stand-in operation: answers `code` with whatever API token it is given, and records the tokens.
  const operation = (code: number, seen: string[] = []) => async (apiToken: string): Promise<{ code: number }> => {
    seen.push(apiToken);
    return { code };
  };

  it('keeps the held token while the platform accepts it, and drops only a refused one', async () => {
    const p = provider({});
    const token = await p.getToken();
    const seen: string[] = [];
    expect(await p.withToken(operation(0, seen), { endpoint: 'E2' })).toEqual({ code: 0 });
    expect(await p.getToken()).toBe(token);
    expect([e1Count(), seen]).toEqual([1, [token]]);
    // One refusal: the token is dropped, E1 is asked once, and the operation runs once more.
    let refusals = 1;
    const once = async (apiToken: string): Promise<{ code: number }> => {
      seen.push(apiToken);
      return { code: refusals-- > 0 ? 40101 : 0 };
    };
    expect(await p.withToken(once, { endpoint: 'E2' })).toEqual({ code: 0 });
    expect([e1Count(), seen.length]).toEqual([2, 3]);
  });

  it('waits for a refusal callback that answers later, and reissues only when it names a code', async () => {
    const p = provider({});
    const token = await p.getToken();
    const seen: string[] = [];
    // An answer the callback clears after a wait: taken as it is, no E1 call, no retry.
    const cleared = await p.withToken(operation(40000, seen), { endpoint: 'E2', refusal: async () => undefined });
    expect([cleared, e1Count(), seen]).toEqual([{ code: 40000 }, 1, [token]]);
    // The same answer blamed on our token after a wait: one reissue, one retry.
    let blamed = 1;
    const trace: { apiToken?: string; reissued?: boolean } = {};
    const retried = await p.withToken(operation(40000, seen), { endpoint: 'E2', trace, refusal: async (reply) => (blamed-- > 0 ? reply.code : undefined) });
    expect([retried, e1Count(), seen.length, trace.reissued]).toEqual([{ code: 40000 }, 2, 3, true]);
    expect(trace.apiToken).toBe(seen[2]);
  });

  it('backs off from a token refused again after a reissue that handed it back', async () => {
    const logger = recordingLogger();
    const p = provider({ logger });
    const token = await p.getToken();
    const seen: string[] = [];
    const trace: { apiToken?: string; reissued?: boolean } = {};
    // E1 hands the same token back while 30 % or more of its lifetime remains; it is still tried once.
    const error = expectPlatformError(await rejectionOf(() => p.withToken(operation(40101, seen), { endpoint: 'E2', trace })), 'configuration', 500);
    expect(seen).toEqual([token, token]);
    expect(trace).toEqual({ apiToken: token, reissued: true });
    expect(e1Count()).toBe(2);
    expect([error.kind, error.status, error.code]).toEqual(['configuration', 500, 40101]);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]?.msg).toContain('E1 handed the refused token back');
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(() => p.withToken(operation(40101), { endpoint: 'E2' }))).toBe(error);
    }
    expect(await p.getToken()).toBe(token);
    expect([e1Count(), logger.at('error').length]).toEqual([2, 1]);
    expect(p.state.backoffUntil).toBe(emulator.now() + CONFIGURATION_BACKOFF_MS);
    emulator.advanceClock(CONFIGURATION_BACKOFF_MS);
    expectPlatformError(await rejectionOf(() => p.withToken(operation(40101), { endpoint: 'E2' })), 'configuration', 500);
    expect(e1Count()).toBe(3);
  });

  it('a success clears the refusal at once: the next 40101 and 40103 are reissued and retried', async () => {
    const p = provider({});
    const token = await p.getToken();
    expectPlatformError(await rejectionOf(() => p.withToken(operation(40101), { endpoint: 'E2' })), 'configuration', 500);
    expect(p.state.backoffUntil).toBeDefined();
    await p.withToken(operation(0), { endpoint: 'E2' });
    expect(p.state.backoffUntil).toBeUndefined();
    for (const code of [40101, 40103]) {
      let refusals = 1;
      const seen: string[] = [];
      const once = async (apiToken: string): Promise<{ code: number }> => {
        seen.push(apiToken);
        return { code: refusals-- > 0 ? code : 0 };
      };
      expect(await p.withToken(once, { endpoint: 'E2' })).toEqual({ code: 0 });
      expect(seen).toEqual([token, token]);
    }
    expect(e1Count()).toBe(4);
  });
});
