import type { TokenPair } from '../emulator/types.js';

/** Fraction of a user token's lifetime after which the SDK renews it (spec, Limits). */
export const SDK_RENEWAL_FRACTION = 0.8;

const CONTROL_TIMEOUT_MS = 5000;

/** A clock; an in-process emulator is one (`emulator.now()`). */
export interface SimulatedClock {
  now(): number | Promise<number>;
}

/** Options of {@link SimulatedClient}. */
export interface SimulatedClientOptions {
  /** Base URL of the emulator (its test-control API is used, as the SDK would use the platform). */
  emulatorUrl: string;
  /** The Game ID the client logs in to; default: the emulator's first seeded client's. */
  gameId?: string;
  /**
   * The emulator's clock. Pass the in-process emulator itself; when absent the clock is read over
   * HTTP (`GET /_emulator/clock`).
   */
  clock?: SimulatedClock;
}

class ControlError extends Error {
  override readonly name = 'ControlError';
  readonly status: number;

  constructor(status: number, message: string) {
    super(message);
    this.status = status;
  }
}

interface HeldLogin {
  memberNo: string;
  accessToken: string;
  refreshToken: string;
  issuedAt: number;
  lifetimeMs: number;
}

/** A connection the simulated client keeps fresh: a Socket.IO client socket fits. */
export interface HeldSocket {
  emitWithAck(event: 'auth:refresh', payload: { token: string }): Promise<unknown>;
}

/**
 * A scripted game client that behaves as the platform's mobile SDKs do (spec, token usage
 * rules), against the emulator:
 *
 * - `accessToken` is `null` until `login()` and after `logout()`;
 * - the token is renewed with the refresh token once 80 % of its lifetime has passed, but only
 *   while the client is running (`suspend()`/`resume()` model the app going to the background);
 * - renewal is checked deterministically, when the token is read (`readAccessToken()`) or on
 *   `tick()`, on the emulator's clock; never by real timers;
 * - an already expired token is not renewed: after a long suspension the token read right after
 *   `resume()` is expired, the game server answers 401 `relogin`, and
 *   `recoverFromUnauthorized()` re-reads the token and, if it is still expired, logs in again.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator();
 * const client = new SimulatedClient({ emulatorUrl: emulator.url, clock: emulator });
 * await client.login('20005061986');
 * const token = await client.readAccessToken(); // send it to the game server
 * ```
 */
export class SimulatedClient {
  private socket: HeldSocket | null = null;
  private readonly baseUrl: string;
  private readonly gameId: string | undefined;
  private readonly clock: SimulatedClock;
  private held: HeldLogin | null = null;
  private isRunning = true;
  /** How many times the SDK renewed the token with the refresh token. */
  renewals = 0;

  constructor(options: SimulatedClientOptions) {
    if (typeof options?.emulatorUrl !== 'string' || options.emulatorUrl === '') {
      throw new TypeError('SimulatedClient: options.emulatorUrl must be the emulator base URL');
    }
    this.baseUrl = options.emulatorUrl.replace(/\/+$/, '');
    this.gameId = options.gameId;
    this.clock = options.clock ?? { now: () => this.readRemoteClock() };
  }

  /** The token the SDK holds now, without a renewal check (the SDK's token property). */
  get accessToken(): string | null {
    return this.held?.accessToken ?? null;
  }

  /** The logged-in member, or null. */
  get memberNo(): string | null {
    return this.held?.memberNo ?? null;
  }

  /** False between `suspend()` and `resume()`. */
  get running(): boolean {
    return this.isRunning;
  }

  /** Step 1: user login. Replaces any previous login (the old token stops verifying). */
  async login(memberNo: string): Promise<string> {
    if (this.held !== null) await this.logout();
    const body: Record<string, string> = { member_no: memberNo };
    if (this.gameId !== undefined) body.game_id = this.gameId;
    const pair = await this.control<TokenPair>('/_emulator/login', body);
    await this.hold(memberNo, pair);
    return pair.access_token;
  }

  /** Logs out: the token stops verifying and `accessToken` becomes null. */
  async logout(): Promise<void> {
    const held = this.held;
    if (held === null) return;
    this.held = null;
    try {
      await this.control('/_emulator/logout', { access_token: held.accessToken });
    } catch (err) {
      // The SDK forgets the token locally whatever the platform says; an already
      // invalid token (400 from the emulator) is the only refusal we accept here.
      if (!(err instanceof ControlError) || err.status !== 400) throw err;
    }
  }

  /**
   * Step 2: read the latest token at the point of use (never cache it). Renews it first when
   * 80 % of its lifetime has passed and the client is running. Null when logged out.
   */
  async readAccessToken(): Promise<string | null> {
    await this.tick();
    return this.accessToken;
  }

  /** The SDK's renewal check; true when it renewed the token. */
  async tick(): Promise<boolean> {
    const held = this.held;
    if (held === null || !this.isRunning) return false;
    const elapsed = (await this.clock.now()) - held.issuedAt;
    if (elapsed < held.lifetimeMs * SDK_RENEWAL_FRACTION || elapsed >= held.lifetimeMs) return false;
    const pair = await this.control<TokenPair>('/_emulator/refresh', { refresh_token: held.refreshToken });
    if (this.held !== held) return false;
    await this.hold(held.memberNo, pair);
    this.renewals += 1;
    await this.refreshSocket(pair.access_token);
    return true;
  }

  /**
   * Holds a live connection (a Socket.IO client socket, or anything with the same
   * `emitWithAck`): each SDK renewal sends the new token in band (`auth:refresh`), as a game
   * client should. `refreshes` counts the acknowledged ones; a refused one throws from `tick()`.
   */
  holdSocket(socket: HeldSocket): void {
    this.socket = socket;
  }

  /** In-band refreshes the held socket acknowledged with `{ ok: true }`. */
  socketRefreshes = 0;

  private async refreshSocket(token: string): Promise<void> {
    const socket = this.socket;
    if (socket === null) return;
    const answer = (await socket.emitWithAck('auth:refresh', { token })) as { ok?: unknown } | undefined;
    if (answer?.ok !== true) throw new Error(`SimulatedClient: the server refused the in-band refresh: ${JSON.stringify(answer)}`);
    this.socketRefreshes += 1;
  }

  /** The app goes to the background: no renewal runs until `resume()`. */
  suspend(): void {
    this.isRunning = false;
  }

  /** The app comes back; renewal checks run again from the next read or tick. */
  resume(): void {
    this.isRunning = true;
  }

  /** True when a token is held and its lifetime has ended on the emulator clock. */
  async isExpired(): Promise<boolean> {
    const held = this.held;
    if (held === null) return false;
    return (await this.clock.now()) - held.issuedAt >= held.lifetimeMs;
  }

  /**
   * What a client does after the game server answered 401 `relogin` for `failedToken`
   * (spec: "client must re-read the token; if still expired, re-login"): re-reads the token and
   * returns it if it is a different, unexpired one; otherwise logs the same member in again.
   */
  async recoverFromUnauthorized(failedToken: string | null): Promise<{ token: string; how: 'reread' | 'relogin' }> {
    const memberNo = this.memberNo;
    if (memberNo === null) throw new Error('SimulatedClient: not logged in; call login(memberNo) first');
    const reread = await this.readAccessToken();
    if (reread !== null && reread !== failedToken && !(await this.isExpired())) {
      return { token: reread, how: 'reread' };
    }
    return { token: await this.login(memberNo), how: 'relogin' };
  }

  private async hold(memberNo: string, pair: TokenPair): Promise<void> {
    this.held = {
      memberNo,
      accessToken: pair.access_token,
      refreshToken: pair.refresh_token,
      issuedAt: await this.clock.now(),
      lifetimeMs: pair.expires_in * 1000,
    };
  }

  private async readRemoteClock(): Promise<number> {
    const answer = await this.control<{ now?: unknown }>('/_emulator/clock');
    if (typeof answer.now !== 'number') throw new Error('SimulatedClient: the emulator clock did not answer { now }; pass options.clock');
    return answer.now;
  }

  // POST with a JSON body, or GET without one.
  private async control<T>(path: string, body?: object): Promise<T> {
    const response = await fetch(`${this.baseUrl}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(CONTROL_TIMEOUT_MS),
    });
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 200);
      try {
        const parsed = JSON.parse(text) as { error?: unknown };
        if (typeof parsed.error === 'string') detail = parsed.error;
      } catch { /* not JSON */ }
      throw new ControlError(response.status, `SimulatedClient: ${path} answered HTTP ${response.status}: ${detail}`);
    }
    return (text === '' ? {} : JSON.parse(text)) as T;
  }
}
