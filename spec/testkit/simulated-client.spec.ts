import { DEFAULT_MEMBERS, startEmulator } from '../../lib/emulator/index.js';
import { PC_SDK_TOKEN_BUFFER_LENGTH, PcSdkResultCode, PcSdkSimulator, SimulatedClient } from '../../lib/testkit/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { PlatformClient, isPlatformError } from '../../lib/index.js';

const GAME = 'demo-game';
const HOUR_MS = 3_600_000;
const LIFETIME_MS = 6 * HOUR_MS;

let emulator: Emulator;
let platform: PlatformClient;

beforeAll(async () => {
  emulator = await startEmulator();
  platform = new PlatformClient({ baseUrl: emulator.url, clientId: 'demo-client', clientSecret: 'demo-secret', gameId: GAME, clock: emulator });
});

afterAll(async () => {
  void platform.close();
  await emulator.close();
});

/** 'ok' when E2 accepts the token, else the error kind. */
async function verdict(token: string | null): Promise<string> {
  if (token === null) return 'null';
  try {
    await platform.verifyUserToken(token);
    return 'ok';
  } catch (err) {
    return isPlatformError(err) ? err.kind : 'unexpected';
  }
}

function newClient(): SimulatedClient {
  return new SimulatedClient({ emulatorUrl: emulator.url, gameId: GAME, clock: emulator });
}

describe('SimulatedClient', () => {
  it('has no token before login and a verifiable one after', async () => {
    const client = newClient();
    expect(client.accessToken).toBeNull();
    expect(await client.readAccessToken()).toBeNull();
    const token = await client.login(DEFAULT_MEMBERS.player);
    expect(await client.readAccessToken()).toBe(token);
    expect(client.memberNo).toBe(DEFAULT_MEMBERS.player);
    expect(await verdict(token)).toBe('ok');
  });

  it('keeps the same token until 80 % of its lifetime has passed', async () => {
    const client = newClient();
    const token = await client.login(DEFAULT_MEMBERS.player);
    emulator.advanceClock(LIFETIME_MS * 0.79);
    expect(await client.readAccessToken()).toBe(token);
    expect(client.renewals).toBe(0);
  });

  it('renews the token at 80 % when read; the old one stops verifying', async () => {
    const client = newClient();
    const old = await client.login(DEFAULT_MEMBERS.player);
    emulator.advanceClock(LIFETIME_MS * 0.8);
    const renewed = await client.readAccessToken();
    expect(renewed).not.toBe(old);
    expect(client.renewals).toBe(1);
    expect(await verdict(old)).toBe('invalid_token');
    expect(await verdict(renewed)).toBe('ok');
  });

  it('renews on tick() as well, without a read', async () => {
    const client = newClient();
    const old = await client.login(DEFAULT_MEMBERS.player);
    expect(await client.tick()).toBe(false);
    emulator.advanceClock(LIFETIME_MS * 0.85);
    expect(await client.tick()).toBe(true);
    expect(client.accessToken).not.toBe(old);
  });

  it('does not renew while suspended, and renews on the first read after resume', async () => {
    const client = newClient();
    const old = await client.login(DEFAULT_MEMBERS.player);
    client.suspend();
    emulator.advanceClock(LIFETIME_MS * 0.9);
    expect(await client.readAccessToken()).toBe(old);
    expect(await client.tick()).toBe(false);
    client.resume();
    const renewed = await client.readAccessToken();
    expect(renewed).not.toBe(old);
    expect(await verdict(renewed)).toBe('ok');
  });

  it('after a suspension longer than the lifetime, reads an expired token, then re-logs in', async () => {
    const client = newClient();
    const old = await client.login(DEFAULT_MEMBERS.player);
    client.suspend();
    emulator.advanceClock(LIFETIME_MS + HOUR_MS);
    client.resume();
    const stale = await client.readAccessToken();
    expect(stale).toBe(old);
    expect(await client.isExpired()).toBe(true);
    expect(await verdict(stale)).toBe('invalid_token');
    const recovered = await client.recoverFromUnauthorized(stale);
    expect(recovered.how).toBe('relogin');
    expect(recovered.token).not.toBe(old);
    expect(await verdict(recovered.token)).toBe('ok');
  });

  it('recovers by re-reading when a newer token is already held', async () => {
    const client = newClient();
    const held = await client.login(DEFAULT_MEMBERS.player);
    emulator.advanceClock(LIFETIME_MS * 0.8);
    await client.tick();
    const recovered = await client.recoverFromUnauthorized(held);
    expect(recovered).toEqual({ token: client.accessToken, how: 'reread' });
  });

  it('changes the token on re-login; the old one stops verifying', async () => {
    const client = newClient();
    const first = await client.login(DEFAULT_MEMBERS.player);
    const second = await client.login(DEFAULT_MEMBERS.player);
    expect(second).not.toBe(first);
    expect(await verdict(first)).toBe('invalid_token');
    expect(await verdict(second)).toBe('ok');
  });

  it('returns null after logout, and the old token stops verifying', async () => {
    const client = newClient();
    const token = await client.login(DEFAULT_MEMBERS.player);
    await client.logout();
    expect(client.accessToken).toBeNull();
    expect(await client.readAccessToken()).toBeNull();
    expect(await verdict(token)).toBe('invalid_token');
    await expect(client.recoverFromUnauthorized(token)).rejects.toThrow('not logged in');
  });

  it('reads the emulator clock over HTTP when no clock is given', async () => {
    const client = new SimulatedClient({ emulatorUrl: emulator.url });
    const old = await client.login(DEFAULT_MEMBERS.player);
    emulator.advanceClock(LIFETIME_MS * 0.8);
    expect(await client.readAccessToken()).not.toBe(old);
  });

  it('reports the emulator refusal of an unknown member', async () => {
    await expect(newClient().login('123')).rejects.toThrow('/_emulator/login answered HTTP 400');
  });

  it('names the missing option', () => {
    expect(() => new SimulatedClient({} as never)).toThrow('SimulatedClient: options.emulatorUrl must be the emulator base URL');
  });
});

describe('PcSdkSimulator', () => {
  function newSdk(restartAppIfNecessary = false): PcSdkSimulator {
    return new PcSdkSimulator({ emulatorUrl: emulator.url, clock: emulator, gameId: GAME, memberNo: DEFAULT_MEMBERS.player, restartAppIfNecessary });
  }

  async function initialized(): Promise<PcSdkSimulator> {
    const sdk = newSdk();
    sdk.Base_RestartAppIfNecessaryAsync(() => {});
    await sdk.Base_RunCallback();
    expect((await sdk.Base_InitializeEx()).IsSuccessful()).toBe(true);
    return sdk;
  }

  it('answers BASE_NOT_INITIALIZED (16) before Base_InitializeEx', () => {
    const result = newSdk().Base_GetAccessToken(PC_SDK_TOKEN_BUFFER_LENGTH);
    expect(result.IsSuccessful()).toBe(false);
    expect(result.code).toBe(PcSdkResultCode.BASE_NOT_INITIALIZED);
    expect(result.code).toBe(16);
  });

  it('delivers the restart callback only from Base_RunCallback, and refuses to initialize before it', async () => {
    const sdk = newSdk();
    const seen: boolean[] = [];
    sdk.Base_RestartAppIfNecessaryAsync((restart) => seen.push(restart));
    expect(seen).toEqual([]);
    expect((await sdk.Base_InitializeEx()).code).toBe(PcSdkResultCode.FAIL);
    await sdk.Base_RunCallback();
    expect(seen).toEqual([false]);
    expect((await sdk.Base_InitializeEx()).IsSuccessful()).toBe(true);
  });

  it('reports restartAppIfNecessary and then refuses to initialize', async () => {
    const sdk = newSdk(true);
    let flag: boolean | undefined;
    sdk.Base_RestartAppIfNecessaryAsync((restart) => { flag = restart; });
    await sdk.Base_RunCallback();
    expect(flag).toBe(true);
    expect((await sdk.Base_InitializeEx()).code).toBe(PcSdkResultCode.FAIL);
  });

  it('answers INVALID_PARAM (5) for a buffer under 4096, and the token otherwise', async () => {
    const sdk = await initialized();
    expect(sdk.Base_GetAccessToken(4095).code).toBe(PcSdkResultCode.INVALID_PARAM);
    const result = sdk.Base_GetAccessToken(4096);
    expect(result.IsSuccessful()).toBe(true);
    expect(await verdict(result.value ?? null)).toBe('ok');
  });

  it('renews the token from the game loop (Base_RunCallback) at 80 %', async () => {
    const sdk = await initialized();
    const old = sdk.Base_GetAccessToken(4096).value;
    emulator.advanceClock(LIFETIME_MS * 0.8);
    expect(sdk.Base_GetAccessToken(4096).value).toBe(old); // a cache read never renews
    await sdk.Base_RunCallback();
    const renewed = sdk.Base_GetAccessToken(4096).value;
    expect(renewed).not.toBe(old);
    expect(await verdict(renewed ?? null)).toBe('ok');
  });

  it('ends the login on Base_UnInitialize', async () => {
    const sdk = await initialized();
    const token = sdk.Base_GetAccessToken(4096).value ?? null;
    expect((await sdk.Base_UnInitialize()).IsSuccessful()).toBe(true);
    expect(sdk.Base_GetAccessToken(4096).code).toBe(PcSdkResultCode.BASE_NOT_INITIALIZED);
    expect(await verdict(token)).toBe('invalid_token');
  });
});
