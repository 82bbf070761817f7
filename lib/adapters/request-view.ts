import type { IncomingMessage } from 'node:http';
import type { AuthRequest } from '../auth/types.js';

const ORIGINAL = Symbol('passport-game-platform.original-request');

/** A framework request that wraps Node's (Fastify's `request.raw`). */
interface WrappedRequest {
  raw: IncomingMessage;
  body?: unknown;
}

function isWrapped(req: object): req is WrappedRequest {
  const raw = (req as { raw?: unknown }).raw;
  return typeof raw === 'object' && raw !== null && Array.isArray((raw as IncomingMessage).rawHeaders);
}

/**
 * The request as the core reads it. Fastify's request keeps only the first
 * of two `Authorization` headers and has no `rawHeaders`, so a wrapped
 * request is read through Node's own message (plus the parsed body); a Node
 * or Express request is read as it is.
 */
export function authRequestOf(req: object): AuthRequest {
  if (!isWrapped(req)) return req as AuthRequest;
  const { raw } = req;
  return {
    method: raw.method,
    url: raw.url,
    headers: raw.headers,
    rawHeaders: raw.rawHeaders,
    get headersDistinct() {
      return raw.headersDistinct;
    },
    body: req.body,
    [ORIGINAL]: req,
  } as AuthRequest;
}

/** `view` with `original` as the object the hooks receive (a socket behind its handshake). */
export function withOriginal(view: AuthRequest, original: object): AuthRequest {
  return Object.defineProperty(view, ORIGINAL, { value: original, enumerable: false });
}

/** The framework's request behind a view built by {@link authRequestOf}. */
export function originalOf<R>(view: AuthRequest): R {
  return ((view as { [ORIGINAL]?: R })[ORIGINAL] ?? view) as R;
}
