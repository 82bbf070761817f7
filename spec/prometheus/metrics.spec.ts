import { Registry } from 'prom-client';
import { PlatformClient } from '../../lib/index.js';
import { collectGamePlatformMetrics } from '../../lib/prometheus/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, TEST_SEED, configFor } from '../support/client-harness.js';

describe('collectGamePlatformMetrics', () => {
  const fx = useEmulator({ seed: TEST_SEED });

  it('counts verifications and platform calls from the diagnostics channels, and reads the gauges from health()', async () => {
    const register = new Registry();
    const client = new PlatformClient(configFor(fx.emulator));
    const stop = collectGamePlatformMetrics({ register, health: () => client.health({ liveConnections: 3 }) });
    try {
      await client.verifyUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
      const text = await register.metrics();
      expect(text).toMatch(/^game_platform_verifications_total\{[^}]*outcome="ok"[^}]*\} 1$/m);
      expect(text).toMatch(/^game_platform_platform_call_duration_seconds_count\{[^}]*endpoint="E2"[^}]*\} 1$/m);
      expect(text).toMatch(/^game_platform_circuit_state 0$/m);
      expect(text).toMatch(/^game_platform_live_connections 3$/m);
    } finally {
      stop();
      await client.close();
    }
  });

  it('stops counting once unsubscribed', async () => {
    const register = new Registry();
    const client = new PlatformClient(configFor(fx.emulator));
    collectGamePlatformMetrics({ register, prefix: 'gone_' })();
    try {
      await client.verifyUserToken(fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
      expect(await register.metrics()).not.toMatch(/^gone_verifications_total\{/m);
    } finally {
      await client.close();
    }
  });
});
