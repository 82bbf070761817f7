import { inspect } from 'node:util';
import { DEFAULT_SEED, startEmulator } from '../../lib/emulator/index.js';
import type { Emulator, EmulatorOptions, EmulatorSeed } from '../../lib/emulator/index.js';
import { PlatformClient } from '../../lib/index.js';
import type { CallEvent, PlatformConfig, RevocationBus, TokenEvent, VerificationStore } from '../../lib/index.js';
import { DEMO } from './demo.js';

export { DEMO };

/** A member whose guid is 2^53 + 1: a JS number would turn it into ...992. */
export const BIG = { memberNo: '9007199254740997', guid: '9007199254740993' } as const;

/** The default seed plus {@link BIG} and a client with a short API-token lifetime. */
export const TEST_SEED: EmulatorSeed = {
  clients: [
    ...DEFAULT_SEED.clients,
    { client_id: 'short-client', client_secret: 'short-secret-value', service_id: 'demo-game', api_token_ttl_seconds: 1000 },
  ],
  members: [...DEFAULT_SEED.members, { member_no: BIG.memberNo, guids: { 'demo-game': BIG.guid }, device_registered: true }],
};

export function startTestEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ seed: TEST_SEED, ...options });
}

/**
 * Client options for an emulator: its clock, the demo Live client, and time budgets a busy
 * machine cannot outlast (a test of a timeout sets its own short ones).
 */
export function configFor(emulator: Emulator, overrides: Partial<PlatformConfig> = {}): PlatformConfig {
  return {
    baseUrl: emulator.url,
    clientId: DEMO.clientId,
    clientSecret: DEMO.clientSecret,
    gameId: DEMO.gameId,
    clock: { now: () => emulator.now() },
    timeoutMs: 10_000,
    totalTimeoutMs: 30_000,
    retryBaseDelayMs: 5,
    retryMaxDelayMs: 20,
    ...overrides,
  };
}

/** Options of a client built by {@link clientsOn}: the config, and a store and revocation bus to share. */
export type TestClientOptions = Partial<PlatformConfig> & { revocations?: RevocationBus; store?: VerificationStore; outageGraceMs?: number };

/**
 * A factory of clients on the emulator `emulator()` returns (with
 * {@link configFor} and `defaults`), each closed after its test.
 */
export function clientsOn(emulator: () => Emulator, defaults: Partial<PlatformConfig> = {}): (overrides?: TestClientOptions) => PlatformClient {
  const open: PlatformClient[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((c) => c.close()));
  });
  return (overrides = {}) => {
    const c = new PlatformClient({ ...configFor(emulator(), defaults), ...overrides });
    open.push(c);
    return c;
  };
}

export { recordingLogger, type LogLine } from './recording-logger.js';

/** Every way a value could be printed: inspect (hidden fields too), JSON, message, stack. */
export function renderings(value: unknown): string[] {
  const out = [inspect(value, { depth: 8, showHidden: true }), inspect(value, { depth: 8 })];
  try {
    out.push(JSON.stringify(value) ?? '');
  } catch {
    out.push('<unserializable>');
  }
  if (value instanceof Error) out.push(value.message, value.stack ?? '', String(value));
  return out;
}

/** Runs `fn`, expecting it to reject, and returns the rejection. */
export async function rejectionOf(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

/** Records every `'call'` and `'token'` event of a client. */
export function recordEvents(client: { on(e: 'call', l: (event: CallEvent) => void): unknown; provider: { on(e: 'token', l: (event: TokenEvent) => void): unknown } }): {
  calls: CallEvent[];
  tokens: TokenEvent[];
} {
  const calls: CallEvent[] = [];
  const tokens: TokenEvent[] = [];
  client.on('call', (event) => calls.push(event));
  client.provider.on('token', (event) => tokens.push(event));
  return { calls, tokens };
}
