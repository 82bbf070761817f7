import type { AuthenticateCallOptions } from '../auth/index.js';
import { abortOnHangUp } from './hang-up.js';

/** The core's request call, or any function shaped like it. */
type RequestAuthenticator<Q, T> = (req: Q, options?: AuthenticateCallOptions) => Promise<T>;

/**
 * The kit's one way in for an HTTP request (Express, Passport, Nest, Fastify): the core reads
 * the token (header, query, body, cookie), checks and verifies it; the platform call is aborted
 * when the client hangs up first (`res`: Node's response, or a wrapper with `.raw`); the watch
 * ends once the authentication settles, even when the core throws at once. A rejection is a
 * `PlatformError` the adapter answers with `problemResponse`.
 */
export function authenticateHttp<Q, T>(authenticate: RequestAuthenticator<Q, T>, req: Q, res: unknown): Promise<T> {
  const watch = abortOnHangUp(res);
  if (watch === undefined) return authenticate(req);
  let verified: Promise<T>;
  try {
    verified = authenticate(req, { signal: watch.signal });
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
