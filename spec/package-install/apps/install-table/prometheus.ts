// The Prometheus row: the package's metrics in prom-client's registry after one verification.
import { Registry } from 'prom-client';
import { PlatformClient } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { collectGamePlatformMetrics } from 'passport-game-platform/prometheus';

const emulator = await startEmulator();
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game' });
const register = new Registry();
const stop = collectGamePlatformMetrics({ register, health: () => client.health() });
const valid = await client.verifyUserToken(emulator.login(DEFAULT_MEMBERS.player).access_token).then(() => 200, () => 0);
const text = await register.metrics();
process.stdout.write(`${JSON.stringify({ verified: valid === 200, 'metrics exposed': /game_platform_\w+/.test(text) })}\n`);
stop();
await client.close();
await emulator.close();
