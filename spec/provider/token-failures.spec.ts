import { ApiTokenProvider, CONFIGURATION_BACKOFF_MS } from '../../lib/index.js';
import type { PlatformConfig, TokenEvent } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { captureLogger, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';
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
    const logger = captureLogger();
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

  it('drops the held token on invalidate() only when it is that token', async () => {
    const p = provider({});
    const token = await p.getToken();
    p.invalidate('some-other-token');
    expect(await p.getToken()).toBe(token);
    expect(e1Count()).toBe(1);
    p.invalidate(token);
    await p.getToken();
    expect(e1Count()).toBe(2);
  });

  it('backs off from a token refused again after a reissue that handed it back (trap 13)', async () => {
    const logger = captureLogger();
    const p = provider({ logger });
    const token = await p.getToken();
    // E1 hands the same token back while 30 % or more of its lifetime remains.
    expect(await p.reissue(token)).toBe(token);
    expect(e1Count()).toBe(2);
    const error = p.rejectedAfterReissue(token, 40101, 'E2', true);
    expect([error.kind, error.status, error.code]).toEqual(['configuration', 500, 40101]);
    expect(logger.at('error')).toHaveLength(1);
    expect(logger.at('error')[0]?.msg).toContain('E1 handed the refused token back');
    for (let i = 0; i < 3; i += 1) {
      expect(await rejectionOf(() => p.reissue(token))).toBe(error);
      expect(p.rejectedAfterReissue(token, 40101, 'E2', true)).toBe(error);
    }
    p.invalidate(token);
    expect(await p.getToken()).toBe(token);
    expect([e1Count(), logger.at('error').length]).toEqual([2, 1]);
    expect(p.state.backoffUntil).toBe(emulator.now() + CONFIGURATION_BACKOFF_MS);
    emulator.advanceClock(CONFIGURATION_BACKOFF_MS);
    expect(await p.reissue(token)).toBe(token);
    expect(e1Count()).toBe(3);
  });
});
