/**
 * The authenticated player, as put on `req.user`. Identifiers are decimal
 * strings with exactly the digits the platform sent (never a lossy number).
 */
export interface GameUser {
  memberNo: string;
  /** `null` when the member has not accepted the game's terms of service. */
  guid: string | null;
  /**
   * Present, and `true`, only when the platform could not be asked (an
   * outage) and the client answered from its outage grace: the token was
   * verified successfully a short while ago, and nothing since says it is
   * not good. Absent on every answer the platform gave.
   */
  servedInGrace?: true;
}

/** A pino-compatible logger: `logger.warn({ ...fields }, 'message')`. */
export interface Logger {
  debug(obj: object, msg?: string): void;
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * A source of the current time in ms; tests pass the emulator's clock.
 * `now()` is wall-clock time, used for API-token lifetimes. Durations
 * (breaker, caches, back-offs) use `monotonicNow()` when given, else the
 * forward movement of `now()` (the default clock uses `performance.now()`).
 */
export interface Clock {
  now(): number;
  /** A clock that never moves backwards, for durations. */
  monotonicNow?(): number;
}

/** Per-call options the authenticator hands to the verifier. */
export interface VerifyCallOptions {
  /** Aborted when nobody waits for the answer any more (the client hung up). */
  signal?: AbortSignal | undefined;
}

/**
 * What authentication needs from the platform client: `PlatformClient`
 * satisfies it. Both methods throw a `PlatformError` on failure. The second
 * argument is passed only when the caller gave a signal.
 */
export interface UserTokenVerifier {
  /** Verifies a game user access token (E2). */
  verifyUserToken(token: string, options?: VerifyCallOptions): Promise<GameUser>;
  /** Verifies a web access token (cookie); needed only with `tokenFrom.cookie`. */
  verifyWebToken?(token: string, options?: VerifyCallOptions): Promise<GameUser>;
}
