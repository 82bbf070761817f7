// The one place the framework adapters (Nest, Fastify) meet the core: how a
// request is authenticated and how a failure is rendered. Each adapter is then
// only the glue its framework needs.
import { createAuthenticator } from '../auth/authenticate.js';
import type { AuthenticateOptions, AuthorizeUser, AuthRequest, MapUser } from '../auth/types.js';
import { DEFAULT_REALM, isPlatformError } from '../errors/index.js';
import { PROBLEM_TYPE_PREFIX, problemFor, type ProblemBody } from '../middleware/problem.js';
import type { GameUser } from '../types.js';
import { authRequestOf, originalOf } from './request-view.js';

/**
 * Options of the framework adapters: the core's (`client`, `tokenFrom`,
 * `mapUser`, `authorize`, `logger`), plus the challenge realm. Hooks receive
 * the framework's own request (`R`).
 */
export interface AdapterOptions<U extends object = object, R extends object = object>
  extends Omit<AuthenticateOptions<U>, 'mapUser' | 'authorize'> {
  mapUser?: ((user: GameUser, req: R) => U | Promise<U>) | undefined;
  authorize?: ((user: GameUser & U, req: R) => boolean | void | Promise<boolean | void>) | undefined;
  /** `realm` of the `WWW-Authenticate` challenge. Default `'game-platform'`. */
  realm?: string | undefined;
}

/** A checked authenticator and the realm its challenges carry. */
export interface AdapterCore<U extends object, R extends object> {
  authenticate(req: R): Promise<GameUser & U>;
  readonly realm: string;
}

/** Checks the options once (errors name `owner`) and builds the core authenticator. */
export function adapterCore<U extends object, R extends object>(options: AdapterOptions<U, R>, owner: string): AdapterCore<U, R> {
  if (options === null || typeof options !== 'object') throw new TypeError(`${owner}: options must be an object`);
  const { realm = DEFAULT_REALM, mapUser, authorize, ...rest } = options;
  if (typeof realm !== 'string' || realm === '') throw new TypeError(`${owner}: options.realm must be a non-empty string`);
  const auth: AuthenticateOptions<U> = { ...rest };
  // Type checks of the hooks stay with the core; only the request they get changes.
  if (mapUser !== undefined) {
    auth.mapUser = (typeof mapUser === 'function'
      ? (user: GameUser, view: AuthRequest) => mapUser(user, originalOf<R>(view))
      : mapUser) as MapUser<U, AuthRequest>;
  }
  if (authorize !== undefined) {
    auth.authorize = (typeof authorize === 'function'
      ? (user: GameUser & U, view: AuthRequest) => authorize(user, originalOf<R>(view))
      : authorize) as AuthorizeUser<U, AuthRequest>;
  }
  let core: (req: AuthRequest) => Promise<GameUser & U>;
  try {
    core = createAuthenticator<U>(auth);
  } catch (err) {
    if (err instanceof TypeError) throw new TypeError(err.message.replace(/^createAuthenticator:/, `${owner}:`));
    throw err;
  }
  return Object.freeze({ authenticate: (req: R) => core(authRequestOf(req)), realm });
}

/** Status, headers and RFC 9457 body of one failed request. */
export interface ProblemResponse {
  status: number;
  headers: Record<string, string>;
  body: ProblemBody;
}

/**
 * Renders any failure as our problem answer: a `PlatformError` with its
 * challenge and `Retry-After`, anything else as a generic 500 that says
 * nothing about the error. Always `Cache-Control: no-store`.
 */
export function problemResponse(err: unknown, opts: { realm?: string | undefined } = {}): ProblemResponse {
  const base = { 'Content-Type': 'application/problem+json; charset=utf-8', 'Cache-Control': 'no-store' };
  if (isPlatformError(err)) {
    const { body, headers } = problemFor(err, opts.realm);
    return { status: body.status, headers: { ...headers, ...base }, body };
  }
  const body: ProblemBody = {
    type: `${PROBLEM_TYPE_PREFIX}internal_error`, title: 'Internal server error', status: 500, action: 'none',
    detail: 'The server failed to handle the request.',
  };
  return { status: 500, headers: base, body };
}
