import http from 'node:http';
import https from 'node:https';
import type { Agents } from './agents.js';
import type { DeadlineSignal } from './deadline-signal.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;

/** One HTTP attempt's answer: status, body text, and `Retry-After`. */
export interface RawResponse {
  readonly status: number;
  readonly text: string;
  readonly retryAfter: string | undefined;
}

/**
 * Why an attempt got no answer. Only a short error code is kept (never the
 * request, its headers or body): the API token and the client secret cannot
 * ride along in an error that reaches a log.
 */
export class TransportError extends Error {
  constructor(readonly code: string | undefined, readonly reused: boolean) {
    super(code ?? 'transport error');
  }
}

/** What one attempt sends. `path` is relative to the base URL, already URL-encoded. */
export interface RawRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string> | undefined;
  headers: Record<string, string>;
  body?: Record<string, string> | undefined;
}

const FIXED_HEADERS = { Accept: 'application/json', 'User-Agent': 'passport-game-platform' } as const;

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : undefined;
}

/**
 * The platform's HTTP transport, on node:http itself (nothing can be
 * configured around it by the environment): keep-alive agents, no redirects followed, no proxy from the
 * environment, relative paths only (kept under the base URL), bounded request
 * and response sizes, no compression asked for, and one signal that ends the
 * attempt at any point, a body trickling in included. Everything a request
 * needs from the base URL is computed once.
 */
export class Transport {
  readonly #request: typeof http.request;
  readonly #agent: http.Agent;
  readonly #host: string;
  readonly #port: number | undefined;
  readonly #basePath: string;

  constructor(baseUrl: string, agents: Agents) {
    const url = new URL(baseUrl);
    const secure = url.protocol === 'https:';
    this.#request = secure ? https.request : http.request;
    this.#agent = secure ? agents.httpsAgent : agents.httpAgent;
    this.#host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    this.#port = url.port === '' ? undefined : Number(url.port);
    this.#basePath = url.pathname.replace(/\/+$/, '');
  }

  send(req: RawRequest, signal: DeadlineSignal): Promise<RawResponse> {
    return new Promise<RawResponse>((resolve, reject) => {
      if (signal.aborted) {
        reject(new TransportError('ERR_CANCELED', false));
        return;
      }
      const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
      if (payload !== undefined && Buffer.byteLength(payload) > MAX_REQUEST_BYTES) {
        reject(new TransportError('ERR_BAD_REQUEST', false));
        return;
      }
      const query = req.query === undefined ? '' : `?${new URLSearchParams(req.query).toString()}`;
      const headers: Record<string, string | number> = { ...FIXED_HEADERS, ...req.headers };
      if (payload !== undefined) headers['Content-Length'] = Buffer.byteLength(payload);
      let settled = false;
      const fail = (code: string | undefined): void => {
        if (settled) return;
        settled = true;
        signal.removeEventListener('abort', onAbort);
        reject(new TransportError(code, outgoing.reusedSocket));
        outgoing.destroy();
      };
      const onAbort = (): void => fail('ERR_CANCELED');
      const outgoing = this.#request({
        host: this.#host,
        port: this.#port,
        method: req.method,
        path: `${this.#basePath}/${req.path.replace(/^\/+/, '')}${query}`,
        headers,
        agent: this.#agent,
      });
      outgoing.on('error', (error) => fail(codeOf(error)));
      outgoing.on('response', (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) fail('ERR_BAD_RESPONSE');
          else chunks.push(chunk);
        });
        res.on('aborted', () => fail('ECONNRESET'));
        res.on('error', (error) => fail(codeOf(error) ?? 'ECONNRESET'));
        res.on('end', () => {
          if (settled) return;
          settled = true;
          signal.removeEventListener('abort', onAbort);
          const retryAfter = res.headers['retry-after'];
          resolve({
            status: res.statusCode ?? 0,
            text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
            retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined,
          });
        });
      });
      signal.addEventListener('abort', onAbort);
      outgoing.end(payload);
    });
  }
}
