import type { EmulatorSeed } from './seed.js';

/**
 * The seed used when none is given: one game (`demo-game`) with a Live and a Sandbox client,
 * a second game (`other-game`) for 41002 tests, and five members:
 *
 * | member_no | guid on demo-game | note |
 * |---|---|---|
 * | 20005061986 | 200000000397 | "admin" |
 * | 20005061987 | 200000000401 | a normal player |
 * | 20005061988 | - | has not accepted demo-game's terms (no guid) |
 * | 20005061989 | 200000000402 | device not registered (E2 answers 46217) |
 * | 9007199254740993 | 9007199254740995 | identifiers above 2^53 |
 *
 * Clients: `demo-client`/`demo-secret` (Live), `demo-sandbox-client`/`demo-sandbox-secret`
 * (Sandbox), `other-client`/`other-secret` (`other-game`, both environments). All are
 * development credentials for the emulator only.
 */
export const DEFAULT_SEED: EmulatorSeed = Object.freeze({
  clients: [
    { client_id: 'demo-client', client_secret: 'demo-secret', service_id: 'demo-game', environment: 'live' },
    { client_id: 'demo-sandbox-client', client_secret: 'demo-sandbox-secret', service_id: 'demo-game', environment: 'sandbox' },
    { client_id: 'other-client', client_secret: 'other-secret', service_id: 'other-game' },
  ],
  members: [
    { member_no: '20005061986', nickname: 'admin', guids: { 'demo-game': '200000000397', 'other-game': '200000000398' }, device_registered: true },
    { member_no: '20005061987', nickname: 'player', guids: { 'demo-game': '200000000401' }, device_registered: true },
    { member_no: '20005061988', nickname: 'no-guid', guids: {}, device_registered: true },
    { member_no: '20005061989', nickname: 'unregistered-device', guids: { 'demo-game': '200000000402' }, device_registered: false },
    { member_no: '9007199254740993', nickname: 'big-ids', guids: { 'demo-game': '9007199254740995' }, device_registered: true },
  ],
}) as EmulatorSeed;

/** member_no values of {@link DEFAULT_SEED}, by role, for tests and examples. */
export const DEFAULT_MEMBERS = Object.freeze({
  admin: '20005061986',
  player: '20005061987',
  noGuid: '20005061988',
  unregisteredDevice: '20005061989',
  bigIds: '9007199254740993',
} as const);
