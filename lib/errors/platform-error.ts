import { DEFAULT_REALM, challengeFor } from './challenge.js';

/**
 * What went wrong, as a stable string callers can switch on.
 *
 * Caller mistakes (`missing_credentials`, `invalid_request`, `invalid_token`,
 * `device_not_registered`, `access_denied`, `not_found`, `rate_limited`) are
 * answered with 4xx; platform or configuration failures (`platform_unavailable`,
 * `configuration`) with 5xx and never with 401, so a client is not sent into a
 * re-login loop for a fault on the server side.
 */
export type ErrorKind =
  | 'missing_credentials'
  | 'invalid_request'
  | 'invalid_token'
  | 'device_not_registered'
  | 'access_denied'
  | 'cross_site'
  | 'not_found'
  | 'rate_limited'
  | 'platform_unavailable'
  | 'configuration';

/** What the game client should do next (the `action` of the error table in docs/errors.md). */
export type ClientAction =
  | 'login'
  | 'relogin'
  | 'register_device'
  | 'retry_later'
  | 'contact_support'
  | 'denied'
  | 'none';

/** Default `Retry-After` of 503 answers, in seconds. */
export const DEFAULT_RETRY_AFTER_SECONDS = 5;

/** Fields of a {@link PlatformError}; only `kind` and `message` are required. */
export interface PlatformErrorInit {
  kind: ErrorKind;
  message: string;
  /** The platform's `code` (or an app's own code for `access_denied`). */
  code?: number;
  /** Overrides the HTTP status derived from `kind`. */
  status?: number;
  /** Overrides the client action derived from `kind`. */
  action?: ClientAction;
  /** Seconds the client should wait before retrying (503 and 429 only). */
  retryAfterSeconds?: number;
  /** Short, secret-free description for `WWW-Authenticate` `error_description`. */
  description?: string;
  /** Realm of the challenge ({@link PlatformError.challenge}). Default `'game-platform'`. */
  realm?: string;
}

const DEFAULTS: Record<ErrorKind, { status: number; action: ClientAction; title: string }> = {
  missing_credentials: { status: 401, action: 'login', title: 'Authentication required' },
  invalid_request: { status: 400, action: 'login', title: 'Malformed authentication request' },
  invalid_token: { status: 401, action: 'relogin', title: 'Invalid or expired user token' },
  device_not_registered: { status: 403, action: 'register_device', title: 'Device not registered' },
  access_denied: { status: 403, action: 'denied', title: 'Access denied' },
  cross_site: { status: 403, action: 'denied', title: 'Cross-site request refused' },
  not_found: { status: 404, action: 'none', title: 'Not found' },
  rate_limited: { status: 429, action: 'retry_later', title: 'Too many requests' },
  platform_unavailable: { status: 503, action: 'retry_later', title: 'Platform unavailable' },
  configuration: { status: 500, action: 'contact_support', title: 'Server misconfiguration' },
};

/**
 * The package's one error type. Everything we throw or pass to `next()` is a
 * `PlatformError`; low-level errors (sockets, HTTP parsing) are converted at the
 * boundary and never attached, so no request config, header or body (and so
 * no secret) can be reached from it through `cause`, `util.inspect` or JSON.
 *
 * @example
 * ```ts
 * import { isPlatformError, PlatformClient } from 'passport-game-platform';
 * declare const client: PlatformClient;
 * async function memberNoOf(token: string): Promise<string | null> {
 *   try {
 *     return (await client.verifyUserToken(token)).memberNo;
 *   } catch (err) {
 *     if (isPlatformError(err) && err.kind === 'invalid_token') return null; // ask for a new login
 *     throw err; // 503 retry_later or 500 contact_support
 *   }
 * }
 * ```
 */
export class PlatformError extends Error {
  override readonly name = 'PlatformError';
  readonly kind: ErrorKind;
  readonly code: number | undefined;
  readonly status: number;
  readonly action: ClientAction;
  readonly title: string;
  readonly retryAfterSeconds: number | undefined;
  readonly description: string | undefined;
  // Private: keeps the own properties to the documented fields.
  readonly #realm: string;

  constructor(init: PlatformErrorInit) {
    super(init.message);
    const defaults = DEFAULTS[init.kind];
    this.kind = init.kind;
    this.code = init.code;
    this.status = init.status ?? defaults.status;
    this.action = init.action ?? defaults.action;
    this.title = defaults.title;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.description = init.description;
    this.#realm = init.realm ?? DEFAULT_REALM;
  }

  /** Realm of {@link PlatformError.challenge}: the one of the authenticator that rejected the request. */
  get realm(): string {
    return this.#realm;
  }

  /**
   * The `WWW-Authenticate` value (RFC 6750) to answer with, or `undefined`
   * when the answer carries none (404, 5xx, 46217).
   */
  get challenge(): string | undefined {
    return challengeFor(this, this.#realm);
  }

  /** Seconds for `Retry-After`: set on every 503 and 429, `undefined` otherwise. */
  get retryAfter(): number | undefined {
    return this.status === 503 || this.status === 429 ? this.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS : undefined;
  }

  /** This error with its challenge in `realm` (itself when the realm is already that). */
  withRealm(realm: string): PlatformError {
    if (realm === this.#realm) return this;
    const copy = new PlatformError({
      kind: this.kind, message: this.message, status: this.status, action: this.action, realm,
      ...(this.code === undefined ? {} : { code: this.code }),
      ...(this.retryAfterSeconds === undefined ? {} : { retryAfterSeconds: this.retryAfterSeconds }),
      ...(this.description === undefined ? {} : { description: this.description }),
    });
    copy.stack = this.stack;
    return copy;
  }

  /** True for failures of the platform or of our own configuration (5xx). */
  get isServerFault(): boolean {
    return this.status >= 500;
  }

  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      kind: this.kind,
      code: this.code,
      status: this.status,
      action: this.action,
      title: this.title,
      message: this.message,
    };
  }
}

/**
 * The brand every `PlatformError` carries on its prototype. A registered
 * symbol (`Symbol.for`) is the same in every copy of the package a process
 * loads, so an error from an app's copy is recognised by a plugin's copy,
 * where `instanceof` answers `false`.
 */
export const PLATFORM_ERROR_BRAND: unique symbol = Symbol.for('passport-game-platform.PlatformError');

// On the prototype, not the instance: the own properties stay the documented fields.
Object.defineProperty(PlatformError.prototype, PLATFORM_ERROR_BRAND, { value: true, enumerable: false, writable: false, configurable: false });

/**
 * Type guard for {@link PlatformError}: true for an error from this copy of
 * the package or from any other copy loaded in the same process (a plugin
 * with its own `node_modules`, a second major beside this one).
 */
export function isPlatformError(value: unknown): value is PlatformError {
  if (value instanceof PlatformError) return true;
  return typeof value === 'object' && value !== null && (value as { [PLATFORM_ERROR_BRAND]?: unknown })[PLATFORM_ERROR_BRAND] === true;
}
