// What the framework adapters (Nest, Fastify) share: the core authenticator
// built once from checked options, seen through the framework's request and
// response. Failures are rendered by the core's `problemResponse`.
import type { IncomingMessage } from 'node:http';
import { AuthenticationCore, resolveAuthenticateOptions, type AuthenticateOptions, type AuthRequest } from '../auth/index.js';
import { handshakeToken, handshakeView } from './handshake.js';
import type { GameUser } from '../types.js';
import { faultLogger } from './fault-log.js';
import { authenticateHttp } from './http-entry.js';
import { authRequestOf, originalOf, withOriginal } from './request-view.js';

/**
 * Options of the framework adapters: the core's (`client`, `realm`,
 * `tokenFrom`, `mapUser`, `authorize`, `logger`); the hooks receive the
 * framework's own request (`R`).
 */
export interface AdapterOptions<U extends object = object, R extends object = object>
  extends Omit<AuthenticateOptions<U>, 'mapUser' | 'authorize'> {
  mapUser?: ((user: GameUser, req: R) => U | Promise<U>) | undefined;
  authorize?: ((user: GameUser & U, req: R) => boolean | void | Promise<boolean | void>) | undefined;
}

/** The core authenticator, for one framework. */
export interface AdapterCore<U extends object = object, R extends object = object> {
  /**
   * Authenticates `req`; with the response (Node's, or a wrapper with `.raw`),
   * the platform call is aborted when the client hangs up first.
   */
  authenticate(req: R, res?: object): Promise<GameUser & U>;
  /**
   * Authenticates a socket's opening request (a WebSocket upgrade, a
   * Socket.IO handshake) as the real-time adapters do: `Authorization:
   * Bearer`, the web token cookie (when `tokenFrom.cookie` names it), or
   * `explicitToken` (Socket.IO's `handshake.auth.token`); never the URL.
   * The hooks receive the socket given as `owner`.
   */
  authenticateHandshake(request: IncomingMessage, explicitToken: unknown, owner: R, signal?: AbortSignal): Promise<GameUser & U>;
  /**
   * Logs a server-side fault (503, 500) the adapter answers, as the Express
   * error handler does: one line per kind and code a minute.
   */
  logFault(err: unknown): void;
  readonly realm: string;
}

/** Checks the options once (errors name `owner`) and builds the core authenticator. */
export function adapterCore<U extends object, R extends object>(options: AdapterOptions<U, R>, owner: string): AdapterCore<U, R> {
  if (options === null || typeof options !== 'object') throw new TypeError(`${owner}: options must be an object`);
  const { mapUser, authorize } = options;
  // The core type-checks the hooks; only the request they receive changes.
  const resolved = resolveAuthenticateOptions<U, AuthRequest>({
    ...options,
    mapUser: typeof mapUser === 'function' ? (user, view) => mapUser(user, originalOf<R>(view)) : mapUser,
    authorize: typeof authorize === 'function' ? (user, view) => authorize(user, originalOf<R>(view)) : authorize,
  }, owner);
  const core = new AuthenticationCore(resolved);
  const cookie = resolved.tokenFrom.cookie;
  return Object.freeze({
    realm: core.realm,
    logFault: faultLogger(resolved.logger),
    authenticate(req: R, res?: object): Promise<GameUser & U> {
      return authenticateHttp(core, authRequestOf(req), res);
    },
    async authenticateHandshake(request: IncomingMessage, explicitToken: unknown, owner: R, signal?: AbortSignal): Promise<GameUser & U> {
      const view = handshakeView(request);
      const { token, source } = handshakeToken(view, cookie, explicitToken);
      return core.userFromToken(token, { req: withOriginal(view, owner), source, ...(signal === undefined ? {} : { signal }) });
    },
  });
}
