import type { PlatformEndpoint } from '../errors/index.js';
import type { DeadlineSignal } from './deadline-signal.js';
import type { ParsedBody } from './platform-body.js';
import type { Exchange } from './transport.js';

/** How one HTTP attempt ended. */
export type Attempt =
  | { readonly status: number; readonly body: ParsedBody; readonly retryAfter: unknown }
  | { readonly status: undefined; readonly error: unknown; readonly code: string | undefined; readonly reused: boolean; readonly timedOut: boolean };

/** One call's retry state. */
export interface Call {
  readonly endpoint: PlatformEndpoint;
  /** The call's signal: the operation's own, or one built here following the caller's. */
  readonly signal: DeadlineSignal;
  readonly deadline: number;
  readonly stats: CallStats;
  retries: number;
  resetRetried: boolean;
  /** Holds a slot of the limiter. */
  admitted: boolean;
  /** The caller has gone: no further attempt is made for it. */
  callerGone: boolean;
  /** The attempt in flight, if any. */
  exchange: Exchange | undefined;
  /** Its neighbours in the list of calls under way (none once it has left it). */
  older: Call | undefined;
  newer: Call | undefined;
}

/** Filled in as the call proceeds, readable even when it throws. */
export interface CallStats {
  attempts: number;
}
