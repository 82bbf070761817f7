/**
 * The platform emulator (`passport-game-platform/emulator`): E1, E2, E3 and the web token route
 * with the platform's paths, bodies, codes and lifetimes, plus a test-control API, fault
 * injection, a request log and a browser login page. For tests and development only.
 *
 * @packageDocumentation
 */
import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
export { startEmulator } from './start-emulator.js';
export { runEmulatorCli, EMULATOR_USAGE } from './run-cli.js';
export type { EmulatorCliIo } from './run-cli.js';
export { DEFAULT_SEED, DEFAULT_MEMBERS } from './default-seed.js';
export { validateSeed, DEFAULT_API_TOKEN_TTL_SECONDS } from './seed.js';
export type { EmulatorSeed, SeedClient, SeedMember, ValidSeed, ValidClient, ValidMember } from './seed.js';
export { validateFault } from './fault-queue.js';
export type { FaultSpec, FaultBase, FaultEndpoint, GarbageVariant } from './fault-queue.js';
export { EmulatorInputError, EmulatorSeedError } from './errors.js';
export { fingerprint } from './token-format.js';
export { USER_TOKEN_LIFETIME_MS, REFRESH_TOKEN_LIFETIME_MS, WEB_TOKEN_LIFETIME_MS } from './user-token-store.js';
export { REUSE_THRESHOLD } from './api-token-store.js';
export type {
  Emulator,
  EmulatorOptions,
  EmulatorEnvironment,
  ErrorStatusStyle,
  EndpointName,
  RequestFilter,
  RequestLogEntry,
  TokenPair,
} from './types.js';
