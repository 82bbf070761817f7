import type { AuthenticationCore } from '../auth/authentication-core.js';
import type { AuthRequest } from '../auth/index.js';
import type { GameUser } from '../types.js';
import { watchLeave, type Leavable, type LeaveWatch } from './leave-watch.js';

/** A watch on one response: `signal` aborts when the client hangs up first. */
export type HangUpWatch = Pick<LeaveWatch, 'signal' | 'stop'>;

const CLOSE = ['close'] as const;

/**
 * Aborts the platform call made for a request when its client hangs up
 * before the answer (see {@link watchLeave}). `res` is Node's response, a
 * wrapper with `.raw` (Fastify's reply), or anything else (`null`,
 * `undefined`, a mock without events), for which there is nothing to watch:
 * `undefined`. A close after the response was sent is no hang-up.
 */
export function abortOnHangUp(res: unknown): HangUpWatch | undefined {
  if (res === null || typeof res !== 'object') return undefined;
  const raw = 'raw' in res ? res.raw : res;
  if (raw === null || typeof raw !== 'object') return undefined;
  const out = raw as Partial<Leavable> & { readonly writableEnded?: boolean };
  if (typeof out.on !== 'function' || typeof out.off !== 'function') return undefined;
  return watchLeave(out as Leavable, CLOSE, undefined, () => out.writableEnded === true);
}

/**
 * The kit's one way in for an HTTP request (Express, Passport, Nest, Fastify): the core reads
 * the token (header, query, body, cookie), checks and verifies it; the platform call is aborted
 * when the client hangs up first (`res`: Node's response, or a wrapper with `.raw`); the watch
 * ends once the authentication settles, even when the core throws at once. A rejection is a
 * `PlatformError` the adapter answers with `problemResponse`.
 */
export function authenticateHttp<U extends object, R extends AuthRequest>(core: AuthenticationCore<U, R>, req: R, res: unknown): Promise<GameUser & U> {
  const watch = abortOnHangUp(res);
  if (watch === undefined) return core.userFromRequest(req);
  let verified: Promise<GameUser & U>;
  try {
    verified = core.userFromRequest(req, { signal: watch.signal });
  } catch (err) {
    watch.stop();
    throw err;
  }
  return verified.then((user) => {
    watch.stop();
    return user;
  }, (err: unknown) => {
    watch.stop();
    throw err;
  });
}
