import { STATUS_CODES } from 'node:http';
import { failureFor, failureRealmFor } from '../auth/failure-record.js';
import { PlatformError, invalidRequest, isPlatformError, missingCredentials } from '../errors/index.js';
import { PROBLEM_TYPE_PREFIX, type Problem } from './problem.js';

/** What the handler renders: a `PlatformError` (with its realm) or a ready problem. */
export type Classified =
  | { error: PlatformError; realm: string | undefined }
  | { problem: Problem; unexpected: boolean };

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

function plainProblem(status: number, type: string, title: string, detail: string): Problem {
  return { body: { type, title, status, action: 'none', detail }, headers: {} };
}

// Passport's failWithError passes only a status: the strategy recorded the rest.
function fromAuthenticationError(status: number, req: object): PlatformError {
  const recorded = failureFor(req);
  if (recorded !== undefined && recorded.status === status) return recorded;
  if (status === 401) return missingCredentials();
  if (status === 400) return invalidRequest('malformed authentication request');
  return new PlatformError({ kind: 'access_denied', status, message: 'Access denied.' });
}

/**
 * Sorts an error reaching the handler: our own errors, passport's
 * `AuthenticationError`, client errors from body-parser or http-errors
 * (`expose: true`, 4xx; rendered with fixed details, never their message,
 * which can quote the body), and anything else (500, `unexpected`).
 */
export function classifyError(err: unknown, req: object): Classified {
  if (isPlatformError(err)) {
    return { error: err, realm: failureFor(req) === err ? failureRealmFor(req) : undefined };
  }
  const e = (err !== null && typeof err === 'object' ? err : {}) as HttpErrorLike;
  const status = typeof e.status === 'number' ? e.status : typeof e.statusCode === 'number' ? e.statusCode : undefined;
  if (e.name === 'AuthenticationError' && status !== undefined && status >= 400 && status < 500) {
    return { error: fromAuthenticationError(status, req), realm: failureRealmFor(req) };
  }
  if (status !== undefined && status >= 400 && status < 500 && e.expose === true) {
    const known = typeof e.type === 'string' ? BODY_ERRORS[e.type] : undefined;
    if (known !== undefined && known.status === status) {
      return { problem: plainProblem(status, PROBLEM_TYPE_PREFIX + known.slug, known.title, known.detail), unexpected: false };
    }
    const title = STATUS_CODES[status] ?? 'Client error';
    return { problem: plainProblem(status, 'about:blank', title, `${title}.`), unexpected: false };
  }
  const problem = plainProblem(500, `${PROBLEM_TYPE_PREFIX}internal_error`, 'Internal server error', 'The server failed to handle the request.');
  return { problem, unexpected: true };
}
