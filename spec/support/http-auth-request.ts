import { extractBearerToken } from '../../lib/auth/extract-token.js';
import type { AuthRequest, ExtractedToken, TokenSources } from '../../lib/auth/types.js';
import { PlatformError } from '../../lib/errors/index.js';

/** A token in the full b64token alphabet. */
export const T = 'eyJhbGciOi.J9-_~+/abc=';

/** A request, described briefly. */
export interface Input {
  auth?: string | string[];
  url?: string;
  method?: string;
  contentType?: string;
  body?: unknown;
  cookie?: string;
}

/** The request as Node would give it (every Authorization line in rawHeaders). */
export function req(input: Input): AuthRequest {
  const auth = input.auth === undefined ? [] : Array.isArray(input.auth) ? input.auth : [input.auth];
  const rawHeaders: string[] = [];
  for (const value of auth) rawHeaders.push('Authorization', value);
  const headers: AuthRequest['headers'] = {};
  if (auth[0] !== undefined) headers.authorization = auth[0];
  if (input.contentType !== undefined) headers['content-type'] = input.contentType;
  if (input.cookie !== undefined) headers.cookie = input.cookie;
  return { method: input.method ?? 'GET', url: input.url ?? '/api/me', headers, rawHeaders, body: input.body };
}

/** 401 bare, 400 invalid_request, 401 invalid_token. */
export type Outcome = 'bare' | 'IR' | 'IT';

function outcomeOf(err: unknown): Outcome {
  if (!(err instanceof PlatformError)) throw err;
  if (err.kind === 'missing_credentials' && err.status === 401) return 'bare';
  if (err.kind === 'invalid_request' && err.status === 400) return 'IR';
  if (err.kind === 'invalid_token' && err.status === 401) return 'IT';
  throw new Error(`unexpected ${err.kind}/${err.status}`);
}

/** The token found, or the outcome of the error. */
export function attempt(input: Input, sources?: TokenSources): Outcome | ExtractedToken {
  try {
    return extractBearerToken(req(input), sources);
  } catch (err) {
    return outcomeOf(err);
  }
}
