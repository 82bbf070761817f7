import { PlatformClient } from '../../lib/index.js';
import type { SessionEndEvent } from '../../lib/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { createRedisFleet } from '../../lib/redis/index.js';
import type { RedisFleet, RedisTarget } from '../../lib/redis/index.js';
import { configFor } from '../support/client-harness.js';
import { recordingLogger } from '../support/recording-logger.js';

/** One instance of a game backend: its client on a Redis fleet, and the session ends it heard. */
export interface Instance {
  client: PlatformClient;
  fleet: RedisFleet;
  ends: SessionEndEvent[];
  close(): Promise<void>;
}

/**
 * Starts an instance on `where` (a URL, or any target of `createRedisFleet`)
 * under `prefix`, with an API token already held (so a busy machine's first
 * E1 call is not what a test measures), the harness's patient platform
 * budgets, and a store timeout a busy machine cannot outlast (a test of a
 * stalled or silent store passes its own short one).
 */
export async function startInstance(emulator: Emulator, where: string | RedisTarget, prefix: string, storeTimeoutMs = 5000): Promise<Instance> {
  const target = typeof where === 'string' ? { url: where } : where;
  const fleet = createRedisFleet({ ...target, prefix, maxReconnectDelayMs: 200, logger: recordingLogger() });
  await fleet.ready();
  const client = new PlatformClient({
    ...configFor(emulator, { cache: { ttlMs: 30_000 }, logger: recordingLogger() }),
    store: fleet.store, revocations: fleet.revocations, storeTimeoutMs,
  });
  await client.ready();
  await fleet.revocations.ready(); // subscribed: what is published from now on reaches this instance
  const ends: SessionEndEvent[] = [];
  client.on('session-end', (event) => ends.push(event));
  return {
    client, fleet, ends,
    async close() {
      await client.close();
      await fleet.close();
    },
  };
}
