import type { ServerResponse } from 'node:http';
import type { ClientAction, PlatformError } from '../errors/index.js';
import { jitteredRetryAfter } from './retry-after-jitter.js';

/** Prefix of the `type` URIs of our problem bodies. */
export const PROBLEM_TYPE_PREFIX = 'urn:passport-game-platform:problem:';

/** Content type of every problem body. */
export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';

/** An RFC 9457 problem body as the package renders it. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  /** What the game client should do next: `login`, `relogin`, `register_device`, `denied`, `retry_later`, `contact_support`, `none`. */
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

/** Options of `problemBody` and `problemFor` (the problem renderers behind every adapter). */
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

/**
 * Body and headers (`WWW-Authenticate` when the error has a challenge,
 * `Retry-After` on 503 and 429) for a `PlatformError`; `realm` overrides the error's.
 * A 503's `Retry-After` is the error's `retryAfter` spread over 60 % to 140 %
 * (5 s: 3 to 7 s), drawn again for every answer.
 */
export function problemFor(error: PlatformError, realm?: string, options: ProblemOptions = {}): Problem {
  const headers: Record<string, string> = {};
  const challenge = (realm === undefined ? error : error.withRealm(realm)).challenge;
  if (challenge !== undefined) headers['WWW-Authenticate'] = challenge;
  const retryAfter = error.retryAfter;
  // A 503 (overload, outage) is spread so obedient clients do not return together; a 429 keeps
  // its exact window, which is the limiter's own.
  if (retryAfter !== undefined) headers['Retry-After'] = String(error.status === 503 ? jitteredRetryAfter(retryAfter) : retryAfter);
  return { body: problemBody(error, options), headers };
}

/** Options of {@link sendProblem}. */
export interface SendProblemOptions {
  /**
   * Keep the `WWW-Authenticate` challenges an earlier layer set (passport
   * does, for every strategy of a chain, ours included); ours is used only
   * when there are none. Default `false`: ours replaces them.
   */
  keepChallenges?: boolean | undefined;
}

function challengesOn(res: ServerResponse): string[] {
  const value = res.getHeader('WWW-Authenticate');
  if (value === undefined) return [];
  return Array.isArray(value) ? value.map(String) : [String(value)];
}

/**
 * Writes a problem as `application/problem+json` with `Cache-Control: no-store`.
 * Plain Node API, so it behaves the same under Express 4 and 5.
 */
export function sendProblem(res: ServerResponse, problem: Problem, options: SendProblemOptions = {}): void {
  const json = JSON.stringify(problem.body);
  const earlier = options.keepChallenges === true ? challengesOn(res) : [];
  res.removeHeader('WWW-Authenticate');
  res.removeHeader('Retry-After');
  res.statusCode = problem.body.status;
  for (const name of Object.keys(problem.headers)) {
    if (name !== 'WWW-Authenticate') res.setHeader(name, problem.headers[name]!);
  }
  const ours = problem.headers['WWW-Authenticate'];
  const challenges = earlier.length > 0 || ours === undefined ? earlier : [ours];
  if (challenges.length === 1) res.setHeader('WWW-Authenticate', challenges[0]!);
  else if (challenges.length > 1) res.setHeader('WWW-Authenticate', challenges);
  res.setHeader('Content-Type', PROBLEM_CONTENT_TYPE);
  res.setHeader('Content-Length', Buffer.byteLength(json));
  res.setHeader('Cache-Control', 'no-store');
  res.end(json);
}
