/**
 * Test kit (`passport-game-platform/testkit`): simulated game clients that log in against the
 * emulator, hold a token pair, refresh it before it expires and call your API, the way a
 * launcher or the PC SDK would. For tests and load scripts only; production code never needs it.
 *
 * @example
 * ```ts
 * import { startEmulator } from 'passport-game-platform/emulator';
 * import { SimulatedClient } from 'passport-game-platform/testkit';
 *
 * const emulator = await startEmulator();
 * const player = new SimulatedClient({ emulatorUrl: emulator.url, clock: emulator });
 * ```
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { SimulatedClient, SDK_RENEWAL_FRACTION } from './simulated-client.js';
export type { SimulatedClientOptions, SimulatedClock, HeldSocket } from './simulated-client.js';
export { PcSdkSimulator, PcSdkResult, PcSdkResultCode, PC_SDK_TOKEN_BUFFER_LENGTH } from './pc-sdk-simulator.js';
export type { PcSdkSimulatorOptions, PcSdkResultCodeValue } from './pc-sdk-simulator.js';
