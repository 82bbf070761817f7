// The several-instances row: the Redis fleet shares the cache and a revocation.
import { PlatformClient, isPlatformError } from 'passport-game-platform';
import { DEFAULT_MEMBERS, startEmulator } from 'passport-game-platform/emulator';
import { createRedisFleet } from 'passport-game-platform/redis';

const emulator = await startEmulator();
const fleet = createRedisFleet({ url: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379', prefix: 'pgp:install-table:' });
const client = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: 'demo-game', cache: { ttlMs: 30_000 }, store: fleet.store, revocations: fleet.revocations });
const token = emulator.login(DEFAULT_MEMBERS.player).access_token;
const before = await client.verifyUserToken(token).then(() => 200, () => 0);
await client.revokeUserToken(token);
const after = await client.verifyUserToken(token).then(() => 200, (err: unknown) => (isPlatformError(err) && err.action === 'relogin' ? 401 : 0));
process.stdout.write(`${JSON.stringify({ 'verified before': before === 200, '401 relogin after the revocation': after === 401 })}\n`);
await client.close();
await fleet.close();
await emulator.close();
