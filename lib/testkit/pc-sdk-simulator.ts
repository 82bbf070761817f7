import { SimulatedClient } from './simulated-client.js';
import type { SimulatedClientOptions } from './simulated-client.js';

/** Result codes of the PC SDK used here (spec, Client errors). */
export const PcSdkResultCode = {
  SUCCESS: 0,
  FAIL: 1,
  INVALID_PARAM: 5,
  BASE_NOT_INITIALIZED: 16,
  INVALID_ACCESS_TOKEN: 19,
} as const;

export type PcSdkResultCodeValue = (typeof PcSdkResultCode)[keyof typeof PcSdkResultCode];

/** The PC SDK token buffer size, in wide characters (spec, Limits). */
export const PC_SDK_TOKEN_BUFFER_LENGTH = 4096;

/** A PC SDK call result: check `IsSuccessful()` before using `value`. */
export class PcSdkResult<T = undefined> {
  readonly code: PcSdkResultCodeValue;
  readonly value?: T | undefined;

  constructor(code: PcSdkResultCodeValue, value?: T) {
    this.code = code;
    this.value = value;
  }

  IsSuccessful(): boolean {
    return this.code === PcSdkResultCode.SUCCESS;
  }
}

/** Options of {@link PcSdkSimulator}. */
export interface PcSdkSimulatorOptions extends SimulatedClientOptions {
  /** The member logged in to the platform's PC client (launcher). */
  memberNo: string;
  /** What `Base_RestartAppIfNecessaryAsync` reports; default false (the game was started by the launcher). */
  restartAppIfNecessary?: boolean;
}

/**
 * The PC SDK (PCSDK3) flavour of {@link SimulatedClient}, with the SDK's call names:
 *
 * 1. `Base_RestartAppIfNecessaryAsync(cb)` queues `cb(restartAppIfNecessary)`; like every SDK
 *    callback it is delivered by `Base_RunCallback()`, which a game loop calls;
 * 2. `Base_InitializeEx()` (only after that callback said `false`) logs the launcher's member in;
 * 3. `Base_GetAccessToken(bufferLength)` is a local cache read: `BASE_NOT_INITIALIZED` (16) before
 *    initialization, `INVALID_PARAM` (5) for a buffer under 4096, else the token.
 *
 * `Base_RunCallback()` also runs the SDK's token renewal check (80 % of the lifetime).
 *
 * @example
 * ```ts
 * const sdk = new PcSdkSimulator({ emulatorUrl: emulator.url, clock: emulator, memberNo: '20005061986' });
 * sdk.Base_RestartAppIfNecessaryAsync((restart) => { if (restart) process.exit(0); });
 * await sdk.Base_RunCallback();
 * await sdk.Base_InitializeEx();
 * const result = sdk.Base_GetAccessToken(PC_SDK_TOKEN_BUFFER_LENGTH);
 * if (result.IsSuccessful()) send(result.value);
 * ```
 */
export class PcSdkSimulator {
  /** The underlying client (login state, renewal). */
  readonly client: SimulatedClient;
  private readonly memberNo: string;
  private readonly restart: boolean;
  private readonly callbacks: Array<() => void> = [];
  private restartChecked: boolean | null = null;
  private initialized = false;

  constructor(options: PcSdkSimulatorOptions) {
    this.client = new SimulatedClient(options);
    this.memberNo = options.memberNo;
    this.restart = options.restartAppIfNecessary ?? false;
  }

  /** Queues the restart check; its callback runs on the next `Base_RunCallback()`. */
  Base_RestartAppIfNecessaryAsync(callback: (restartAppIfNecessary: boolean) => void): PcSdkResult {
    this.callbacks.push(() => {
      this.restartChecked = this.restart;
      callback(this.restart);
    });
    return new PcSdkResult(PcSdkResultCode.SUCCESS);
  }

  /** Delivers queued callbacks and runs the SDK's token renewal check. */
  async Base_RunCallback(): Promise<PcSdkResult> {
    for (const callback of this.callbacks.splice(0)) callback();
    if (this.initialized) await this.client.tick();
    return new PcSdkResult(PcSdkResultCode.SUCCESS);
  }

  /** Initializes the SDK; FAIL unless the restart check completed with `false`. */
  async Base_InitializeEx(): Promise<PcSdkResult> {
    if (this.restartChecked !== false) return new PcSdkResult(PcSdkResultCode.FAIL);
    if (!this.initialized) {
      await this.client.login(this.memberNo);
      this.initialized = true;
    }
    return new PcSdkResult(PcSdkResultCode.SUCCESS);
  }

  /** Reads the held token (no network call). */
  Base_GetAccessToken(bufferLength: number): PcSdkResult<string> {
    if (!this.initialized) return new PcSdkResult(PcSdkResultCode.BASE_NOT_INITIALIZED);
    if (!Number.isInteger(bufferLength) || bufferLength < PC_SDK_TOKEN_BUFFER_LENGTH) {
      return new PcSdkResult(PcSdkResultCode.INVALID_PARAM);
    }
    const token = this.client.accessToken;
    if (token === null) return new PcSdkResult(PcSdkResultCode.INVALID_ACCESS_TOKEN);
    if (token.length >= bufferLength) return new PcSdkResult(PcSdkResultCode.INVALID_PARAM);
    return new PcSdkResult(PcSdkResultCode.SUCCESS, token);
  }

  /** Shuts the SDK down; the token stops verifying. */
  async Base_UnInitialize(): Promise<PcSdkResult> {
    if (!this.initialized) return new PcSdkResult(PcSdkResultCode.BASE_NOT_INITIALIZED);
    this.initialized = false;
    await this.client.logout();
    return new PcSdkResult(PcSdkResultCode.SUCCESS);
  }
}
