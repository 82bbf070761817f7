import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';

/**
 * Credentials and ids of the emulator's DEFAULT_SEED (development values
 * only): the one demo fixture of every spec, harness and bench.
 */
export const DEMO = {
  gameId: 'demo-game',
  clientId: 'demo-client',
  clientSecret: 'demo-secret',
  sandboxClientId: 'demo-sandbox-client',
  sandboxClientSecret: 'demo-sandbox-secret',
  otherGameId: 'other-game',
  otherClientId: 'other-client',
  otherClientSecret: 'other-secret',
  admin: DEFAULT_MEMBERS.admin,
  adminGuid: '200000000397',
  player: DEFAULT_MEMBERS.player,
  playerGuid: '200000000401',
  noGuid: DEFAULT_MEMBERS.noGuid,
  unregistered: DEFAULT_MEMBERS.unregisteredDevice,
  big: DEFAULT_MEMBERS.bigIds,
  bigGuid: '9007199254740995',
} as const;
