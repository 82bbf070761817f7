import { readFileSync } from 'node:fs';
import { DEFAULT_SEED, EmulatorSeedError, startEmulator, validateSeed } from '../../lib/emulator/index.js';

const client = { client_id: 'c', client_secret: 's', service_id: 'g' };
const member = { member_no: '1' };

describe('seed validation', () => {
  it.each([
    [null, 'seed must be an object with "clients" and "members" arrays'],
    [{ clients: [], members: [] }, 'seed.clients must be a non-empty array'],
    [{ clients: [client] }, 'seed.members must be an array'],
    [{ clients: [{ ...client, client_secret: '' }], members: [] }, 'seed.clients[0].client_secret must be a non-empty string'],
    [{ clients: [client, { ...client, service_id: 5 }], members: [] }, 'seed.clients[1].service_id must be a non-empty string'],
    [{ clients: [{ ...client, api_token_ttl_seconds: 0 }], members: [] }, 'seed.clients[0].api_token_ttl_seconds must be a positive integer'],
    [{ clients: [{ ...client, environment: 'prod' }], members: [] }, 'seed.clients[0].environment must be "live" or "sandbox"'],
    [{ clients: [client, client], members: [] }, 'seed.clients[1].client_id "c" is a duplicate'],
    [{ clients: [client], members: [member, member] }, 'seed.members[1].member_no "1" is a duplicate'],
    [{ clients: [client], members: [member, { member_no: '2' }, { member_no: 3 }] }, 'seed.members[2].member_no must be a string of digits (no leading zeros)'],
    [{ clients: [client], members: [{ member_no: '007' }] }, 'seed.members[0].member_no must be a string of digits (no leading zeros)'],
    [{ clients: [client], members: [{ ...member, guids: { g: 12 } }] }, 'seed.members[0].guids["g"] must be a string of digits (no leading zeros)'],
    [{ clients: [client], members: [{ ...member, guids: [] }] }, 'seed.members[0].guids must be an object mapping game_id to a guid'],
    [{ clients: [client], members: [{ ...member, device_registered: 'yes' }] }, 'seed.members[0].device_registered must be a boolean'],
    [{ clients: [client], members: [{ ...member, guids: { g: '9' } }, { member_no: '2', guids: { g: '9' } }] }, 'seed.members[1].guids["g"] "9" is used by seed.members[0] too'],
  ])('refuses %j: %s', (seed, message) => {
    expect(() => validateSeed(seed)).toThrow(new EmulatorSeedError(message));
  });

  it('fills in defaults: 30-day lifetime, device registered, no guids', () => {
    const seed = validateSeed({ clients: [client], members: [member] });
    expect(seed.clients[0]).toEqual({ ...client, api_token_ttl_seconds: 2_592_000, environment: undefined });
    expect(seed.members[0]).toEqual({ member_no: '1', guids: {}, device_registered: true, nickname: undefined });
    expect(Object.isFrozen(seed.members[0])).toBe(true);
  });

  it('accepts DEFAULT_SEED and examples/seed.json', () => {
    expect(validateSeed(DEFAULT_SEED).members).toHaveLength(5);
    expect(validateSeed(JSON.parse(readFileSync('examples/seed.json', 'utf8'))).clients.length).toBeGreaterThan(0);
  });

  it('makes startEmulator reject a bad seed or option, naming it', async () => {
    await expect(startEmulator({ seed: { clients: [client], members: [{ member_no: 'x' }] } }))
      .rejects.toThrow('seed.members[0].member_no must be a string of digits');
    await expect(startEmulator({ errorStatus: 'loud' as never })).rejects.toThrow("options.errorStatus must be one of 'platform', 'ok', 'http'");
    await expect(startEmulator({ identifiers: 'bigint' as never })).rejects.toThrow("options.identifiers must be one of 'number', 'string'");
    await expect(startEmulator({ environment: 'prod' as never })).rejects.toThrow("options.environment must be one of 'live', 'sandbox'");
    await expect(startEmulator({ webCookieName: 'a b' })).rejects.toThrow('options.webCookieName must be a cookie name');
    await expect(startEmulator({ port: 70000 })).rejects.toThrow('options.port must be an integer from 0 to 65535');
  });
});
