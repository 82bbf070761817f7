import type { ServerResponse } from 'node:http';
import { DEFAULT_RETRY_AFTER_SECONDS, challengeFor, type ClientAction, type PlatformError } from '../errors/index.js';

/** Prefix of the `type` URIs of our problem bodies. */
export const PROBLEM_TYPE_PREFIX = 'urn:passport-game-platform:problem:';

/** An RFC 9457 problem body as the package renders it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  /** What the game client should do next (CONTRACT section 2). */
  action: ClientAction;
  /** The platform's code (or the app's, for `access_denied`) when there is one. */
  code?: number;
  /** Secret-free explanation; generic for 5xx unless `exposeDetail`. */
  detail: string;
}

/** A problem ready to send: body plus the headers that go with it. */
export interface Problem {
  body: ProblemBody;
  headers: Record<string, string>;
}

const GENERIC_DETAIL: Record<number, string> = {
  500: 'The server could not check your credentials because of a problem on its side. Contact support if it persists.',
  503: 'The game platform is unavailable at the moment. Try again later.',
};

/** Options of {@link problemBody} and {@link problemFor}. */
export interface ProblemOptions {
  /** Show a 5xx error's own message as `detail` (development only). Default `false`. */
  exposeDetail?: boolean | undefined;
}

/**
 * The RFC 9457 body for a `PlatformError`, for apps that render errors
 * themselves. 4xx details are the error's own (fixed, secret-free) message;
 * 5xx details are generic unless `exposeDetail`.
 */
export function problemBody(error: PlatformError, options: ProblemOptions = {}): ProblemBody {
  const generic = error.status >= 500 && options.exposeDetail !== true;
  const body: ProblemBody = {
    type: PROBLEM_TYPE_PREFIX + error.kind,
    title: error.title,
    status: error.status,
    action: error.action,
    detail: generic ? (GENERIC_DETAIL[error.status] ?? GENERIC_DETAIL[500]!) : error.message,
  };
  if (error.code !== undefined) body.code = error.code;
  return body;
}

/** Body and headers (`WWW-Authenticate` on 400/401, `Retry-After` on 503) for a `PlatformError`. */
export function problemFor(error: PlatformError, realm?: string, options: ProblemOptions = {}): Problem {
  const headers: Record<string, string> = {};
  const challenge = challengeFor(error, realm);
  if (challenge !== undefined && (error.status === 400 || error.status === 401)) headers['WWW-Authenticate'] = challenge;
  if (error.status === 503) headers['Retry-After'] = String(error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS);
  return { body: problemBody(error, options), headers };
}

/**
 * Writes a problem as `application/problem+json` with `Cache-Control: no-store`,
 * replacing any challenge an earlier layer (passport) set. Plain Node API, so
 * it behaves the same under Express 4 and 5.
 */
export function sendProblem(res: ServerResponse, problem: Problem): void {
  const json = JSON.stringify(problem.body);
  res.removeHeader('WWW-Authenticate');
  res.removeHeader('Retry-After');
  res.statusCode = problem.body.status;
  for (const [name, value] of Object.entries(problem.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/problem+json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.setHeader('Cache-Control', 'no-store');
  res.end(json);
}
