import { EventEmitter } from 'node:events';
import { abortOnHangUp } from '../../lib/adapters/index.js';
import { createAuthenticator } from '../../lib/auth/authenticate.js';
import type { VerifyCallOptions } from '../../lib/auth/types.js';
import { PlatformClient } from '../../lib/client/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { CALLER_GONE } from '../../lib/platform-call/aborted.js';
import type { GameUser } from '../../lib/types.js';
import { DEMO, configFor, startTestEmulator } from '../support/client-harness.js';

class FakeResponse extends EventEmitter {
  writableEnded = false;
}

const PLAYER: GameUser = { memberNo: '20005061986', guid: null };
const REQUEST = { headers: { authorization: 'Bearer okToken' } };

/** Authenticates one request the way the adapters do: with the hang-up watch's signal. Returns what the verifier saw. */
async function signalSeenBy(client: PlatformClient, seen: { signal?: AbortSignal | undefined }): Promise<{ res: FakeResponse; signal: AbortSignal | undefined }> {
  const res = new FakeResponse();
  const watch = abortOnHangUp(res)!;
  await createAuthenticator(client)(REQUEST, { signal: watch.signal });
  return { res, signal: seen.signal };
}

// The adapters' hang-up signal is the package's light one: only the package's own client may
// receive it as it is. An override may hand its signal to fetch or AbortSignal.any.
describe('the signal a verifier receives from the authenticator', () => {
  const config = { baseUrl: 'http://127.0.0.1:9', clientId: 'c', clientSecret: 's', gameId: DEMO.gameId };

  it('is a real AbortSignal for a subclass that overrides verifyUserToken, no longer following the hang-up once verified', async () => {
    const seen: { signal?: AbortSignal | undefined } = {};
    class Wrapped extends PlatformClient {
      override verifyUserToken(_token: string, options: VerifyCallOptions = {}): Promise<GameUser> {
        seen.signal = options.signal;
        return Promise.resolve(PLAYER);
      }
    }
    const client = new Wrapped(config);
    const { res, signal } = await signalSeenBy(client, seen);
    expect(signal).toBeInstanceOf(AbortSignal);
    res.emit('close');
    expect([signal?.aborted, signal?.reason]).toEqual([false, undefined]); // released once verified
    await client.close();
  });

  it('is a real AbortSignal for a client whose verifyUserToken was replaced on the instance', async () => {
    const seen: { signal?: AbortSignal | undefined } = {};
    const client = new PlatformClient(config);
    client.verifyUserToken = (_token, options) => {
      seen.signal = options?.signal;
      return Promise.resolve(PLAYER);
    };
    const { signal } = await signalSeenBy(client, seen);
    expect(signal).toBeInstanceOf(AbortSignal);
    await client.close();
  });

  it('aborts with the caller-gone reason when the client hangs up while a verifier of its own waits', async () => {
    let seen: AbortSignal | undefined;
    const res = new FakeResponse();
    const watch = abortOnHangUp(res)!;
    const verifier = {
      verifyUserToken: (_token: string, options?: VerifyCallOptions) => new Promise<GameUser>((resolve) => {
        seen = options?.signal;
        seen?.addEventListener('abort', () => resolve(PLAYER));
        res.emit('close');
      }),
    };
    await createAuthenticator(verifier)(REQUEST, { signal: watch.signal });
    expect([seen instanceof AbortSignal, seen?.aborted, seen?.reason]).toEqual([true, true, CALLER_GONE]);
  });
});

describe('PlatformClient.verifyUserToken given a signal that is not one', () => {
  let emulator: Emulator;
  afterEach(() => emulator.close());

  it('rejects rather than throwing, and asks the platform nothing for it', async () => {
    emulator = await startTestEmulator();
    const client = new PlatformClient(configFor(emulator));
    await client.ready();
    const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
    let answer: Promise<GameUser> | undefined;
    expect(() => {
      answer = client.verifyUserToken(token, { signal: null as unknown as AbortSignal });
    }).not.toThrow();
    await expect(answer).rejects.toBeInstanceOf(TypeError);
    expect(emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    await client.close();
  });
});
