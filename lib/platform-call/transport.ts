// By its file, not its bare name: Bun swaps a bare `undici` for a stub of its own (no dispatch, destroy
// or close); Node and Deno load the same file either way.
import { Client } from 'undici/index.js';
import type { Dispatcher } from 'undici/index.js';

/** Largest response body read from the platform (its answers are a few hundred bytes). */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** Largest request body sent (a user token is at most a few KiB). */
export const MAX_REQUEST_BYTES = 64 * 1024;
/** Idle keep-alive sockets are closed after this, below Node's 5 s server keep-alive, so we never send on a socket the server is closing. */
export const KEEP_ALIVE_IDLE_MS = 4000;

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
  readonly code: string | undefined;
  readonly reused: boolean;

  constructor(code: string | undefined, reused: boolean) {
    super(code ?? 'transport error');
    this.code = code;
    this.reused = reused;
  }
}

/** What one attempt sends. `path` is relative to the base URL, already URL-encoded. */
export interface RawRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string> | undefined;
  /** Never changed once sent: the same object sent again reuses its merge with the fixed headers. */
  headers: Record<string, string>;
  body?: Record<string, string> | undefined;
}

/** How the pool is sized and bounded. */
export interface TransportOptions {
  /** Bound of a connect, and the default of an attempt's header and body waits. */
  timeoutMs: number;
}

const FIXED_HEADERS = { accept: 'application/json', 'user-agent': 'passport-game-platform' } as const;
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

/** Our short code for an undici or socket failure: what the retry rules read. */
function codeOf(error: unknown): { code: string | undefined; reused: boolean } {
  if (error instanceof TransportError) return { code: error.code, reused: error.reused };
  const raw = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const code = typeof raw === 'string' && /^[A-Z0-9_]{1,40}$/.test(raw) ? raw : undefined;
  if (code !== undefined && TIMEOUT_CODES.has(code)) return { code: 'ETIMEDOUT', reused: false };
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return { code: 'ERR_BAD_RESPONSE', reused: false };
  if (code === 'UND_ERR_ABORTED' || code === 'UND_ERR_DESTROYED' || code === 'UND_ERR_CLOSED') return { code: 'ERR_CANCELED', reused: false };
  if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED') return { code: 'ERR_BAD_REQUEST', reused: false };
  if (code === 'UND_ERR_SOCKET') {
    // The server closed the socket under the request. Bytes read before ours mean a kept-alive
    // socket that had already served an answer: the keep-alive race, worth one more try at once.
    const read = (error as { socket?: { bytesRead?: unknown } }).socket?.bytesRead;
    return { code: 'ECONNRESET', reused: typeof read === 'number' && read > 0 };
  }
  return { code, reused: false };
}

/**
 * One attempt in flight, and undici's handler for it: the body is collected
 * here (no stream per answer), bounded in size and in time. {@link cancel}
 * ends it at any point, before its socket is assigned included.
 */
export class Exchange implements Dispatcher.DispatchHandler {
  readonly done: Promise<RawResponse>;
  readonly #resolve: (response: RawResponse) => void;
  readonly #reject: (error: TransportError) => void;
  #abort: ((error: Error) => void) | undefined;
  #settled: boolean;
  #status: number;
  #retryAfter: string | undefined;
  readonly #chunks: Buffer[];
  #size: number;
  #timer: NodeJS.Timeout | undefined;

  /** The transport and connection to hand back once undici is done with the request (answered, failed or aborted). */
  readonly #owner: Transport | undefined;
  readonly #client: Client | undefined;
  #released: boolean;

  readonly #timeoutMs: number;
  readonly #timed: boolean;
  /** `performance.now()` time by which the body must be in (undici bounds the wait between chunks, not the whole body). */
  #endsAt: number;

  /**
   * `timeoutMs`: the attempt's time from the moment its request is written
   * (connecting is bounded by the connect timeout, and everything by the
   * call's deadline), on a precise timer of its own when `timed` (undici's own
   * waits tick coarsely).
   */
  constructor(timeoutMs: number, timed = false, owner?: Transport, client?: Client) {
    // Every field is set here, none by an initializer: one function per attempt fewer, and the
    // promise's resolvers come from the engine, not from an executor of ours.
    const { promise, resolve, reject } = Promise.withResolvers<RawResponse>();
    this.done = promise;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#abort = undefined;
    this.#settled = false;
    this.#status = 0;
    this.#retryAfter = undefined;
    this.#chunks = [];
    this.#size = 0;
    this.#timer = undefined;
    this.#owner = owner;
    this.#client = client;
    this.#released = false;
    this.#timeoutMs = timeoutMs;
    this.#timed = timed;
    this.#endsAt = Infinity;
  }

  /** Ends the attempt with `code`; nothing once it has settled. */
  cancel(code = 'ERR_CANCELED'): void {
    if (this.#settled) return;
    const error = new TransportError(code, false);
    this.#fail(error);
    this.#abort?.(error);
  }

  onConnect(abort: (error?: Error) => void): void {
    if (this.#settled) {
      abort(new TransportError('ERR_CANCELED', false));
      return;
    }
    if (this.#abort === undefined) {
      const ms = this.#timeoutMs;
      this.#endsAt = performance.now() + ms;
      if (this.#timed) {
        this.#timer = setTimeout(() => this.cancel('ETIMEDOUT'), ms);
        this.#timer.unref();
      }
    }
    this.#abort = abort;
  }

  onHeaders(status: number, headers: Buffer[] | string[] | null): boolean {
    this.#status = status;
    if (headers !== null) {
      for (let i = 0; i < headers.length; i += 2) {
        const name = headers[i]!;
        // Length first: most headers are ruled out without building a string.
        if (name.length === 11 && String(name).toLowerCase() === 'retry-after') {
          this.#retryAfter = String(headers[i + 1]);
        }
      }
    }
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.#size += chunk.length;
    if (this.#size > MAX_RESPONSE_BYTES) this.cancel('ERR_BAD_RESPONSE');
    else if (performance.now() > this.#endsAt) this.cancel('ETIMEDOUT');
    else this.#chunks.push(chunk);
    return true;
  }

  onComplete(): void {
    if (!this.#released) {
      this.#released = true;
      this.#owner?.free(this.#client!);
    }
    if (this.#settled) return;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    const chunks = this.#chunks;
    const response = { status: this.#status, text: chunks.length === 1 ? chunks[0]!.toString('utf8') : Buffer.concat(chunks).toString('utf8'), retryAfter: this.#retryAfter };
    this.#resolve(response);
  }

  onError(error: Error): void {
    if (!this.#released) {
      this.#released = true;
      this.#owner?.free(this.#client!);
    }
    const { code, reused } = codeOf(error);
    this.#fail(error instanceof TransportError ? error : new TransportError(code, reused));
  }

  #fail(error: TransportError): void {
    if (this.#settled) return;
    this.#settled = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#reject(error);
  }
}

/**
 * The platform's HTTP transport on undici: keep-alive connections to the
 * platform's one origin, no redirects followed, no proxy read from the
 * environment, relative paths only (kept under the base URL), bounded request
 * and response sizes, no compression asked for, header and body waits within
 * the attempt's time. Everything a request needs from the base URL is
 * computed once.
 *
 * The connections are undici `Client`s handed out in FIFO order: the one idle
 * the longest goes first, so under steady load none reaches the idle timeout
 * only to be reopened at the next peak. (undici's `Pool` marks a connection
 * busy until an event it emits a moment after the answer, and opens another
 * for a call made in that moment: sequential calls would use two sockets.)
 * Connections are never more than the calls in flight, which the limiter caps.
 */
export class Transport {
  readonly #origin: string;
  readonly #basePath: string;
  readonly #options: Client.Options;
  /** Connections with no request, the one idle the longest first. */
  readonly #idle: Client[] = [];
  readonly #all = new Set<Client>();
  #closed = false;
  /** The last headers object sent and its merge with {@link FIXED_HEADERS}: callers keep one per API token. */
  #lastHeaders: Record<string, string> | undefined;
  #lastMerged: Record<string, string> = FIXED_HEADERS;
  /** The last relative path sent and its full form under the base path (E2 sends one path for every call). */
  #lastPath: string | undefined;
  #lastTarget = '';

  constructor(baseUrl: string, options: TransportOptions) {
    const url = new URL(baseUrl);
    this.#origin = url.origin;
    this.#basePath = url.pathname.replace(/\/+$/, '');
    this.#options = {
      pipelining: 1,
      keepAliveTimeout: KEEP_ALIVE_IDLE_MS,
      keepAliveMaxTimeout: KEEP_ALIVE_IDLE_MS,
      // No header or body wait of undici's own: each attempt's time is kept by its precise timer
      // or its call's deadline (see Exchange). undici's waits are coarse timer objects made anew
      // for nearly every request and kept until their next tick (half a second): thousands alive
      // under load, every one moved to the old generation by the garbage collector.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: options.timeoutMs },
      maxResponseSize: MAX_RESPONSE_BYTES,
    };
  }

  /** Connections open or ready to reconnect (for tests and health). */
  get connections(): number {
    return this.#all.size;
  }

  /**
   * Starts one attempt, whose answer (headers and body) must be in within
   * `timeoutMs`, timed precisely when `timed` (else the caller's own deadline
   * ends it first). Never throws: a request that cannot be sent settles the
   * exchange with a short code.
   */
  start(req: RawRequest, timeoutMs: number, timed = true): Exchange {
    const wait = Math.max(1, Math.ceil(timeoutMs));
    const payload = req.body === undefined ? undefined : JSON.stringify(req.body);
    // A UTF-16 unit is at most 3 bytes of UTF-8: a short body is not measured.
    if (this.#closed || (payload !== undefined && payload.length * 3 > MAX_REQUEST_BYTES && Buffer.byteLength(payload) > MAX_REQUEST_BYTES)) {
      const refused = new Exchange(0);
      refused.cancel(this.#closed ? 'ERR_CANCELED' : 'ERR_BAD_REQUEST');
      return refused;
    }
    if (req.path !== this.#lastPath) {
      this.#lastPath = req.path;
      this.#lastTarget = `${this.#basePath}/${req.path.replace(/^\/+/, '')}`;
    }
    const client = this.#idle.shift() ?? this.#open();
    const exchange = new Exchange(wait, timed, this, client);
    const query = req.query === undefined ? '' : `?${new URLSearchParams(req.query).toString()}`;
    if (req.headers !== this.#lastHeaders) {
      this.#lastHeaders = req.headers;
      this.#lastMerged = { ...FIXED_HEADERS, ...req.headers };
    }
    try {
      client.dispatch({
        method: req.method,
        path: query === '' ? this.#lastTarget : `${this.#lastTarget}${query}`,
        headers: this.#lastMerged,
        body: payload ?? null,
      }, exchange);
    } catch (error) {
      exchange.onError(error as Error);
    }
    return exchange;
  }

  /** Destroys every connection; attempts still running end with `ERR_CANCELED`. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#idle.length = 0;
    const all = [...this.#all];
    this.#all.clear();
    await Promise.all(all.map((client) => client.destroy()));
  }

  #open(): Client {
    const client = new Client(this.#origin, this.#options);
    this.#all.add(client);
    return client;
  }

  /** Takes a connection back once undici is done with its request (called by its {@link Exchange}). */
  free(client: Client): void {
    if (this.#closed || client.destroyed || !this.#all.has(client)) return;
    this.#idle.push(client);
  }
}
