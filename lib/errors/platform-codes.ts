import { DEFAULT_RETRY_AFTER_SECONDS, PlatformError } from './platform-error.js';

export { DEFAULT_RETRY_AFTER_SECONDS };

/** Response codes of the platform's JSON bodies (spec, Errors). */
export const PlatformCode = {
  SUCCESS: 0,
  BAD_REQUEST: 40000,
  INVALID_API_TOKEN: 40101,
  EXPIRED_API_TOKEN: 40103,
  CLIENT_MISMATCH: 40105,
  GAME_ID_MISMATCH: 41002,
  DEVICE_NOT_REGISTERED: 46217,
  UNKNOWN_ERROR: 50000,
} as const;

/** Which platform call produced a code; 40000 means different things. */
export type PlatformEndpoint = 'E1' | 'E2' | 'E3' | 'web';

/**
 * The one place that maps a platform `code` (other than 0) to an outcome.
 * Called after retries and the API-token reissue are exhausted.
 */
export function errorForPlatformCode(code: number, endpoint: PlatformEndpoint): PlatformError {
  switch (code) {
    case PlatformCode.BAD_REQUEST:
      if (endpoint === 'E3') {
        return new PlatformError({ kind: 'invalid_request', code, status: 400, action: 'none', message: 'The platform rejected the member lookup as a bad request (40000): check search_type and value.' });
      }
      if (endpoint === 'E1') {
        return new PlatformError({ kind: 'configuration', code, message: 'The platform rejected our API token request as a bad request (40000): check PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET and PLATFORM_GAME_ID are set and well formed.' });
      }
      return new PlatformError({ kind: 'invalid_token', code, message: 'The platform rejected the user token (40000): it is wrong, expired, refreshed or logged out; the client must log in again.', description: 'The access token is invalid or expired' });
    case PlatformCode.INVALID_API_TOKEN:
    case PlatformCode.EXPIRED_API_TOKEN:
      if (endpoint === 'web') {
        // The web route's bearer is the player's own web token, not our API token.
        return new PlatformError({ kind: 'invalid_token', code, message: `The platform rejected the web token (${code}): it is wrong or expired; the player must log in again.`, description: 'The access token is invalid or expired' });
      }
      return new PlatformError({ kind: 'configuration', code, message: `The platform still refuses our API Access Token (${code}) after one reissue: check the server credentials (PLATFORM_CLIENT_ID, PLATFORM_GAME_ID) and the environment (Live or Sandbox).` });
    case PlatformCode.CLIENT_MISMATCH:
      return new PlatformError({ kind: 'configuration', code, message: 'The platform says client_id and client_secret do not match (40105): check that Live and Sandbox keys are not mixed (PLATFORM_ENV / PLATFORM_BASE_URL, PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET).' });
    case PlatformCode.GAME_ID_MISMATCH:
      return new PlatformError({ kind: 'configuration', code, message: "The platform says the Game ID differs from the API token's service_id (41002): PLATFORM_GAME_ID must be the Game ID the credentials were issued for, in the same environment (or a player sent a token of another game)." });
    case PlatformCode.DEVICE_NOT_REGISTERED:
      return new PlatformError({ kind: 'device_not_registered', code, message: 'The member must register this device before playing (46217).' });
    case PlatformCode.UNKNOWN_ERROR:
      return outage(new PlatformError({ kind: 'platform_unavailable', code, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS, message: 'The platform answered "unknown error" (50000) after retries: try again later; if it persists, contact the technical PM.' }));
    default:
      break;
  }
  return new PlatformError({ kind: 'platform_unavailable', code, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS, message: `The platform answered ${endpoint} with an unexpected code ${code}.` });
}

/**
 * E2's 40000 while a probe of our own API token found our side at
 * fault: 503 `retry_later`, never 401, so players are not all logged out for
 * a server-side fault.
 */
export function errorForRefusalOnOurSide(code: number): PlatformError {
  return new PlatformError({
    kind: 'platform_unavailable', code, retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS,
    message: `The platform refuses user tokens (${code}) while it also refuses our own requests (E3 probe): a server-side fault, not the player's; try again later.`,
  });
}

/** How a call failed below the JSON level. */
export type TransportFault = 'timeout' | 'network' | 'http_status' | 'bad_body' | 'circuit_open' | 'overloaded' | 'aborted' | 'closed';

/** Maps a transport failure (after retries) to a 503 `retry_later`. */
export function errorForTransportFault(fault: TransportFault, endpoint: PlatformEndpoint, detail?: string): PlatformError {
  const what: Record<TransportFault, string> = {
    timeout: 'did not answer in time',
    network: 'could not be reached',
    http_status: 'answered with an HTTP error',
    bad_body: 'answered with a body that is not the expected JSON',
    circuit_open: 'is failing; calls are paused for a moment',
    overloaded: 'has too many calls in flight from this server',
    aborted: 'was not asked (the caller went away)',
    closed: 'is not called any more (the platform client is closed)',
  };
  const suffix = detail ? ` (${detail})` : '';
  const error = new PlatformError({ kind: 'platform_unavailable', retryAfterSeconds: DEFAULT_RETRY_AFTER_SECONDS, message: `The platform ${what[fault]} on ${endpoint}${suffix}: try again later.` });
  return OUTAGE_FAULTS.has(fault) ? outage(error) : error;
}

/** Faults of the platform itself, as opposed to our side giving up (aborted, closed, overloaded). */
const OUTAGE_FAULTS: ReadonlySet<TransportFault> = new Set<TransportFault>(['timeout', 'network', 'http_status', 'bad_body', 'circuit_open']);
const OUTAGES = new WeakSet<PlatformError>();

function outage(error: PlatformError): PlatformError {
  OUTAGES.add(error);
  return error;
}

/** Marks `error` as not the platform being out of service (an edge's 4xx page); returns it. */
export function notAnOutage(error: PlatformError): PlatformError {
  OUTAGES.delete(error);
  return error;
}

/**
 * True when an error says the platform itself is out of service: E1, E2 or
 * E3 unreachable, timing out, answering 5xx or a 2xx body that is not its JSON,
 * 50000, or the circuit open. Not when our side gave up (the caller went
 * away, the client is closed, too many calls queued) nor when the platform
 * answered a refusal.
 */
export function isPlatformOutage(error: unknown): boolean {
  return error instanceof PlatformError && OUTAGES.has(error);
}
