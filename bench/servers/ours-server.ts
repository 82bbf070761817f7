// `ours`: the example app's `createApp` with one `PlatformClient` (default options), or with the
// opt-in result cache when BENCH_CACHE_TTL_MS is set (BENCH_CACHE_MAX_ENTRIES optional).
import { createApp } from '../../example-app/create-app.js';
import { PlatformClient } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import { requireEnv, serveHttp } from './server-kit.js';

function cacheOption(): PlatformConfig['cache'] {
  const ttl = process.env.BENCH_CACHE_TTL_MS;
  if (ttl === undefined || ttl === '') return undefined;
  const max = process.env.BENCH_CACHE_MAX_ENTRIES;
  return { ttlMs: Number(ttl), ...(max ? { maxEntries: Number(max) } : {}) };
}

const cache = cacheOption();
const client = new PlatformClient({
  baseUrl: requireEnv('PLATFORM_BASE_URL'),
  clientId: requireEnv('PLATFORM_CLIENT_ID'),
  clientSecret: requireEnv('PLATFORM_CLIENT_SECRET'),
  gameId: requireEnv('PLATFORM_GAME_ID'),
  ...(cache ? { cache } : {}),
});
const app = createApp({ client, adminMemberNos: [] });

await serveHttp(app, undefined, () => void client.close());
