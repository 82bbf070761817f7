/**
 * A test-control input the emulator refuses (unknown member, bad fault spec, ...).
 * The control API answers it with HTTP 400 and `{ "error": message }`.
 */
export class EmulatorInputError extends Error {
  override readonly name = 'EmulatorInputError';
}

/** A seed file or object the emulator cannot use; the message names the bad field. */
export class EmulatorSeedError extends Error {
  override readonly name = 'EmulatorSeedError';
}
