import { BENCH_PLATFORM } from './bench-seed.js';
import { spawnServer } from './children.js';
import type { ServerProcess, SpawnOptions } from './children.js';
import type { PlatformCounts } from './ipc-protocol.js';

/** The emulator process and what the app servers need to reach it. */
export interface BenchPlatform {
  readonly emulator: ServerProcess;
  /** PLATFORM_* variables of every app server. */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** Fresh user tokens of distinct bench players (round-robin over the seeded members). */
  mint(count: number): Promise<string[]>;
  counts(): Promise<PlatformCounts>;
  resetCounts(): Promise<void>;
  /** E2 latency fault (`count: -1`), replacing any other fault; 0 clears. */
  setLatency(latencyMs: number): Promise<void>;
}

export async function startPlatform(members: number, spawnOptions: SpawnOptions = {}): Promise<BenchPlatform> {
  const emulator = await spawnServer('emulator', 'emulator-server.ts', {
    ...spawnOptions,
    env: { ...spawnOptions.env, BENCH_MEMBERS: String(members) },
  });
  let memberOffset = 0;
  return {
    emulator,
    serverEnv: Object.freeze({
      PLATFORM_BASE_URL: emulator.url,
      PLATFORM_CLIENT_ID: BENCH_PLATFORM.clientId,
      PLATFORM_CLIENT_SECRET: BENCH_PLATFORM.clientSecret,
      PLATFORM_GAME_ID: BENCH_PLATFORM.gameId,
    }),
    async mint(count) {
      const { tokens } = await emulator.call({ op: 'mint', count, memberOffset });
      memberOffset = (memberOffset + count) % members;
      return tokens;
    },
    counts: () => emulator.call({ op: 'counts' }),
    async resetCounts() {
      await emulator.call({ op: 'reset-counts' });
    },
    async setLatency(latencyMs) {
      await emulator.call({ op: 'latency', latencyMs });
    },
  };
}

/** Total platform calls (E1 + E2 + E3). */
export function platformCalls(c: PlatformCounts): number {
  return c.E1 + c.E2 + c.E3;
}
