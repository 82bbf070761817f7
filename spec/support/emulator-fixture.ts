import { startEmulator } from '../../lib/emulator/index.js';
import type { Emulator, EmulatorOptions } from '../../lib/emulator/index.js';

/**
 * One emulator per `describe` block: started in beforeAll, faults/requests cleared before each
 * test, closed in afterAll. Read `fixture.emulator` inside tests.
 */
export function useEmulator(options: EmulatorOptions = {}): { readonly emulator: Emulator; readonly url: string } {
  let emulator: Emulator | undefined;
  beforeAll(async () => {
    emulator = await startEmulator(options);
  });
  beforeEach(() => {
    emulator?.clearFaults();
    emulator?.clearRequests();
  });
  afterAll(async () => {
    await emulator?.close();
  });
  return {
    get emulator(): Emulator {
      if (!emulator) throw new Error('emulator not started yet');
      return emulator;
    },
    get url(): string {
      if (!emulator) throw new Error('emulator not started yet');
      return emulator.url;
    },
  };
}

/** Runs `fn` against a fresh emulator (its own clock and tokens), closing it afterwards. */
export async function withEmulator<T>(options: EmulatorOptions, fn: (emulator: Emulator) => Promise<T>): Promise<T> {
  const emulator = await startEmulator(options);
  try {
    return await fn(emulator);
  } finally {
    await emulator.close();
  }
}

/** 30 days in ms (the default API token lifetime). */
export const DAYS_30_MS = 30 * 24 * 3_600_000;
/** 6 hours in ms (the user token lifetime). */
export const HOURS_6_MS = 6 * 3_600_000;
