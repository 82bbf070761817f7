import type { IncomingMessage } from 'node:http';
import type { AuthRequest } from '../auth/index.js';

const ORIGINAL = Symbol('passport-game-platform.original-request');

/** A framework request that wraps Node's (Fastify's `request.raw`). */
interface WrappedRequest {
  raw: IncomingMessage;
  body?: unknown;
  /** The scheme the app is served on, as the framework's trust-proxy setting reads it. */
  protocol?: unknown;
}

function isWrapped(req: object): req is WrappedRequest {
  const raw = (req as { raw?: unknown }).raw;
  return typeof raw === 'object' && raw !== null && Array.isArray((raw as IncomingMessage).rawHeaders);
}

/**
 * A wrapped request read through Node's own message (its `rawHeaders` show a
 * second `Authorization` header) plus the parsed body. One class, so every
 * view has the same shape: it is built on every request.
 */
class WrappedView {
  readonly method: string | undefined;
  readonly url: string | undefined;
  readonly headers: IncomingMessage['headers'];
  readonly rawHeaders: string[];
  readonly body: unknown;
  readonly [ORIGINAL]: object;
  readonly #req: WrappedRequest;

  constructor(req: WrappedRequest) {
    const { raw } = req;
    this.method = raw.method;
    this.url = raw.url;
    this.headers = raw.headers;
    this.rawHeaders = raw.rawHeaders;
    this.body = req.body;
    this[ORIGINAL] = req;
    this.#req = req;
  }

  /** Read only by the cookie-write check: the framework's scheme (Fastify: `trustProxy`). */
  get protocol(): unknown {
    return this.#req.protocol;
  }
}

/**
 * The request as the core reads it. Fastify's request keeps only the first
 * of two `Authorization` headers and has no `rawHeaders`, so a wrapped
 * request is read through Node's own message; a Node or Express request is
 * read as it is.
 */
export function authRequestOf(req: object): AuthRequest {
  return isWrapped(req) ? new WrappedView(req) : req as AuthRequest;
}

/** `view` with `original` as the object the hooks receive (a socket behind its handshake). */
export function withOriginal(view: AuthRequest, original: object): AuthRequest {
  return Object.defineProperty(view, ORIGINAL, { value: original, enumerable: false });
}

/** The framework's request behind a view built by {@link authRequestOf}. */
export function originalOf<R>(view: AuthRequest): R {
  return ((view as { [ORIGINAL]?: R })[ORIGINAL] ?? view) as R;
}
