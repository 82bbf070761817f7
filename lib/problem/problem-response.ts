import { STATUS_CODES } from 'node:http';
import { PlatformError, invalidRequest, isPlatformError, missingCredentials } from '../errors/index.js';
import { PROBLEM_CONTENT_TYPE, PROBLEM_TYPE_PREFIX, problemFor, type ProblemBody } from './problem.js';

/** Everything an adapter needs to answer a failure: status, headers, problem body. */
export interface ProblemResponse {
  status: number;
  /**
   * `Content-Type` (problem+json), `Cache-Control: no-store`, and when they
   * apply `WWW-Authenticate` and `Retry-After`.
   */
  headers: Record<string, string>;
  body: ProblemBody;
}

/** Options of {@link problemResponse}. */
export interface ProblemResponseOptions {
  /** Realm of `WWW-Authenticate`; default: the one the error carries (its authenticator's). */
  realm?: string | undefined;
  /** Show a 5xx error's own message as `detail` (development only). Default `false`. */
  exposeDetail?: boolean | undefined;
}

/** What a thrown value is, for rendering and logging. */
export interface DescribedError {
  response: ProblemResponse;
  /** The PlatformError rendered, when there is one (ours, or passport's status turned into one). */
  error: PlatformError | undefined;
  /** Nothing we know: rendered as a generic 500, worth an error log line. */
  unexpected: boolean;
}

interface HttpErrorLike {
  name?: unknown;
  status?: unknown;
  statusCode?: unknown;
  expose?: unknown;
  type?: unknown;
}

const BODY_ERRORS: Record<string, { status: number; slug: string; title: string; detail: string }> = {
  'entity.parse.failed': { status: 400, slug: 'malformed_body', title: 'Malformed request body', detail: 'The request body could not be parsed.' },
  'entity.too.large': { status: 413, slug: 'body_too_large', title: 'Request body too large', detail: 'The request body is larger than this server accepts.' },
};

function plain(status: number, type: string, title: string, detail: string): ProblemResponse {
  return { status, headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store' }, body: { type, title, status, action: 'none', detail } };
}

function statusOf(e: HttpErrorLike): number | undefined {
  if (typeof e.status === 'number') return e.status;
  return typeof e.statusCode === 'number' ? e.statusCode : undefined;
}

/** True for passport's `AuthenticationError` (what `failWithError` passes on). */
export function isAuthenticationError(err: unknown): err is Error & { status: number } {
  if (err === null || typeof err !== 'object' || isPlatformError(err)) return false;
  try {
    const e = err as HttpErrorLike;
    return e.name === 'AuthenticationError' && typeof e.status === 'number' && e.status >= 400 && e.status < 500;
  } catch {
    return false; // properties that throw when read
  }
}

// passport's failWithError passes only a status when nothing better is known.
function fromAuthenticationStatus(status: number): PlatformError {
  if (status === 401) return missingCredentials();
  if (status === 400) return invalidRequest('malformed authentication request');
  return new PlatformError({ kind: 'access_denied', status, message: 'Access denied.' });
}

const INTERNAL = (): DescribedError => ({
  response: plain(500, `${PROBLEM_TYPE_PREFIX}internal_error`, 'Internal server error', 'The server failed to handle the request.'),
  error: undefined,
  unexpected: true,
});

function rendered(error: PlatformError, options: ProblemResponseOptions): DescribedError {
  const { body, headers } = problemFor(error, options.realm, options);
  headers['Content-Type'] = PROBLEM_CONTENT_TYPE;
  headers['Cache-Control'] = 'no-store';
  return { response: { status: body.status, headers, body }, error, unexpected: false };
}

/** {@link problemResponse}, and what the error was. Never throws. */
export function describeError(err: unknown, options: ProblemResponseOptions = {}): DescribedError {
  if (isPlatformError(err)) return rendered(err, options);
  try {
    if (isAuthenticationError(err)) return rendered(fromAuthenticationStatus(err.status), options);
    const e = (err !== null && typeof err === 'object' ? err : {}) as HttpErrorLike;
    const status = statusOf(e);
    // Client errors of body-parser / http-errors: fixed details, never their
    // message, which can quote the body.
    if (status !== undefined && status >= 400 && status < 500 && e.expose === true) {
      const known = typeof e.type === 'string' ? BODY_ERRORS[e.type] : undefined;
      if (known !== undefined && known.status === status) {
        return { response: plain(status, PROBLEM_TYPE_PREFIX + known.slug, known.title, known.detail), error: undefined, unexpected: false };
      }
      const title = STATUS_CODES[status] ?? 'Client error';
      return { response: plain(status, 'about:blank', title, `${title}.`), error: undefined, unexpected: false };
    }
  } catch {
    // A foreign error whose properties throw when read: nothing to learn from it.
  }
  return INTERNAL();
}

/**
 * The one renderer of failures, for every adapter (Express error handler,
 * Fastify, Nest, a refused WebSocket upgrade, Socket.IO's `connect_error`
 * data): status, headers and RFC 9457 body for anything thrown. A
 * `PlatformError` keeps its status, action, code, challenge and
 * `Retry-After`; passport's `AuthenticationError` is rendered by its status;
 * body-parser's 4xx with fixed details; anything else is a generic 500 with
 * no message or stack.
 *
 * @example
 * ```ts
 * const { status, headers, body } = problemResponse(err);
 * reply.code(status).headers(headers).send(body);
 * ```
 */
export function problemResponse(err: unknown, options: ProblemResponseOptions = {}): ProblemResponse {
  return describeError(err, options).response;
}
