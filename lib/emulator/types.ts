import type { FaultSpec } from './fault-queue.js';

/** Which credential set an emulator accepts (the platform's Live and Sandbox are separate). */
export type EmulatorEnvironment = 'live' | 'sandbox';

/** A server credential set (E1). */
export interface SeedClient {
  client_id: string;
  client_secret: string;
  /** The Game ID these credentials are for. */
  service_id: string;
  /** API token lifetime; default 2592000 (30 days). */
  api_token_ttl_seconds?: number;
  /** Only valid when the emulator runs in this environment; absent: valid in both. */
  environment?: EmulatorEnvironment;
}

/** A platform member. Identifiers are strings of digits. */
export interface SeedMember {
  member_no: string;
  /** guid per Game ID; a game missing here means "terms not accepted" (no guid). */
  guids?: Record<string, string>;
  /** false: E2 answers 46217. Default true. */
  device_registered?: boolean;
  /** Shown on the browser login page only. */
  nickname?: string;
}

/** The emulator's data (the seed format in lib/emulator/README.md, plus optional extensions). */
export interface EmulatorSeed {
  clients: SeedClient[];
  members: SeedMember[];
}

/**
 * HTTP status style of error codes:
 * - `'platform'` (default): HTTP 200 for error codes, except 40101/40103 -> 401 (E3's documented
 *   behaviour, applied to E2 too); E1 always 200.
 * - `'ok'`: always 200; only the body's `code` tells.
 * - `'http'`: 40000 -> 400, 40101/40103/40105 -> 401, 41002/46217 -> 403, 50000 -> 500.
 */
export type ErrorStatusStyle = 'platform' | 'ok' | 'http';

/** What a request was, as recorded in the request log. */
export type EndpointName = 'E1' | 'E2' | 'E3' | 'web' | 'control' | 'login-page' | 'unknown';

/** Options of {@link startEmulator}. Every field is optional. */
export interface EmulatorOptions {
  /** Listen port; default 0 (a free port). */
  port?: number;
  /** Listen host; default `127.0.0.1`. */
  host?: string;
  /** Clients and members; default {@link DEFAULT_SEED}. Validated at start. */
  seed?: EmulatorSeed;
  /** Which credential set is valid; default `'live'`. */
  environment?: EmulatorEnvironment;
  /** How member_no/guid are written: JSON numbers (default, exact above 2^53) or JSON strings. */
  identifiers?: 'number' | 'string';
  /** HTTP status style of error codes; default `'platform'`. */
  errorStatus?: ErrorStatusStyle;
  /** Name of the web token cookie set by the browser login page; default `SUAT`. */
  webCookieName?: string;
  /** Extra host names the login page may redirect to (loopback and `host` are always allowed). */
  allowedRedirectHosts?: string[];
  /** Server keep-alive idle timeout in ms; default Node's 5000. */
  keepAliveTimeoutMs?: number;
  /**
   * `'real'` (default): real time plus the offset moved by `advanceClock`. `'frozen'`: starts at
   * the real time and moves only with `advanceClock` (exact boundary tests).
   */
  clock?: 'real' | 'frozen';
  /** Most request-log entries kept (oldest dropped first); default 10000. */
  maxLogEntries?: number;
}

/** A user login as the SDK would hold it. `expires_in` is in seconds (21600). */
export interface TokenPair {
  access_token: string;
  refresh_token: string;
  expires_in: number;
}

/** One request as seen by the emulator. Never holds a secret or a full token. */
export interface RequestLogEntry {
  endpoint: EndpointName;
  method: string;
  /** Path and query; secret-looking query parameters are masked. */
  path: string;
  /** Request headers; Authorization is `Bearer ***<last 4>`, cookies are masked. */
  headers: Record<string, string>;
  /** The `caller-id` header, or null when absent. */
  callerId: string | null;
  /** The bearer token's fingerprint (8 hex digits of SHA-256, as the client's), when one was sent. */
  authFingerprint?: string;
  /** E1 only: the `client_id` and `instance_id` of the body (never the secret). */
  clientId?: string;
  instanceId?: string;
  /** Emulator clock when the request arrived (ms). */
  time: number;
  /** HTTP status answered; null while pending, or when dropped/hung. */
  status: number | null;
  /** Platform `code` of the JSON answer, when there was one. */
  code?: number;
  /** The fault injected into this request, if any. */
  fault?: FaultSpec['type'];
}

/** Filter of {@link Emulator.requests}. */
export interface RequestFilter {
  endpoint?: EndpointName;
}

/** A running emulator (in-process handle). */
export interface Emulator {
  /** Base URL, e.g. `http://127.0.0.1:4010`. */
  readonly url: string;
  readonly port: number;
  readonly environment: EmulatorEnvironment;
  /** Logs a member in to a game (default: the first seeded client's service_id). */
  login(memberNo: string, gameId?: string): TokenPair;
  /** Trades a refresh token for a new pair; the old access token stops verifying. */
  refresh(refreshToken: string): TokenPair;
  /** Ends a login; its access and refresh tokens stop working. */
  logout(accessToken: string): void;
  /** A web (cookie) token for a member, valid 6 hours. */
  issueWebToken(memberNo: string): string;
  /** Moves the emulator clock forward by `ms` (>= 0). */
  advanceClock(ms: number): void;
  /** Emulator time in ms (real time + offset). */
  now(): number;
  /** Queues a fault for the next matching requests. */
  injectFault(fault: FaultSpec): void;
  /** Faults still queued, in order, with the uses left as `count`. */
  pendingFaults(): FaultSpec[];
  /** Drops every queued fault. */
  clearFaults(): void;
  /** Requests a `hold` fault is holding now (their callers still waiting). */
  held(): number;
  /** Answers every request a `hold` fault holds, normally; returns how many. */
  releaseHeld(): number;
  /** Copies of the request log, oldest first, optionally for one endpoint. */
  requests(filter?: RequestFilter): RequestLogEntry[];
  /** Empties the request log. */
  clearRequests(): void;
  /** Closes the server and every socket, hung ones included. */
  close(): Promise<void>;
}
