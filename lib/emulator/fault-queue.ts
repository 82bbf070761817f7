import { EmulatorInputError } from './errors.js';

/** Which platform endpoint a fault applies to; `'any'` = E1, E2, E3 and the web route (never control calls). */
export type FaultEndpoint = 'E1' | 'E2' | 'E3' | 'web' | 'any';

/** Body of a `garbage` fault (HTTP 200, `content-type: application/json` in every case). */
export type GarbageVariant = 'text' | 'html' | 'json-without-code' | 'truncated-json' | 'empty';

/** What every {@link FaultSpec} has: where it applies and how many requests it hits. */
export interface FaultBase {
  /** Default `'any'`. */
  endpoint?: FaultEndpoint;
  /** How many matching requests get the fault; default 1; `Infinity` or `-1`: until cleared. */
  count?: number;
}

/**
 * A fault for the next matching requests. Faults are consumed in the order they were injected;
 * one request gets at most one fault.
 * - `latency`: wait `latencyMs`, then answer normally.
 * - `code`: answer `{code, message}` with `status` (default: the emulator's status style).
 * - `http5xx`: answer `status` (default 502) with an HTML body.
 * - `drop`: destroy the socket without answering.
 * - `hang`: never answer (the socket is destroyed by `close()`).
 * - `hold`: answer normally once the test calls `releaseHeld()` (a slow platform whose answer
 *   comes after an event the test chooses, not after a guessed delay).
 * - `garbage`: HTTP 200 with a body that is not JSON, or JSON without `code`.
 * - `reset-reused`: destroy the connection when the request came on a reused keep-alive socket
 *   (Node's keep-alive race); requests on fresh sockets pass it by without consuming it.
 */
export type FaultSpec =
  | (FaultBase & { type: 'latency'; latencyMs: number })
  | (FaultBase & { type: 'code'; code: number; status?: number; message?: string })
  | (FaultBase & { type: 'http5xx'; status?: number })
  | (FaultBase & { type: 'drop' })
  | (FaultBase & { type: 'hang' })
  | (FaultBase & { type: 'hold' })
  | (FaultBase & { type: 'garbage'; variant?: GarbageVariant })
  | (FaultBase & { type: 'reset-reused' });

const TYPES = new Set(['latency', 'code', 'http5xx', 'drop', 'hang', 'hold', 'garbage', 'reset-reused']);
const ENDPOINTS = new Set(['E1', 'E2', 'E3', 'web', 'any']);
const VARIANTS = new Set(['text', 'html', 'json-without-code', 'truncated-json', 'empty']);
const MAX_TIMER_MS = 2 ** 31 - 1;

function bad(message: string): never {
  throw new EmulatorInputError(`fault: ${message}`);
}

const isInt = (v: unknown, min: number, max: number): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** Checks a fault spec (from a test or the HTTP control API) and fills in endpoint and count. */
export function validateFault(raw: unknown): FaultSpec {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) bad('must be an object with a "type"');
  const f = raw as Record<string, unknown>;
  if (typeof f.type !== 'string' || !TYPES.has(f.type)) bad(`type must be one of ${[...TYPES].join(', ')}`);
  const endpoint = f.endpoint ?? 'any';
  if (typeof endpoint !== 'string' || !ENDPOINTS.has(endpoint)) bad('endpoint must be one of E1, E2, E3, web, any');
  let count = f.count ?? 1;
  if (count === -1 || count === Infinity) count = Infinity;
  else if (!isInt(count, 1, Number.MAX_SAFE_INTEGER)) bad('count must be a positive integer, -1 or Infinity');
  if (f.type === 'latency' && !isInt(f.latencyMs, 0, MAX_TIMER_MS)) bad('latencyMs must be an integer from 0 to 2147483647');
  if (f.type === 'code') {
    if (!isInt(f.code, -(2 ** 31), 2 ** 31)) bad('code must be an integer');
    if (f.status !== undefined && !isInt(f.status, 200, 599)) bad('status must be an HTTP status from 200 to 599');
    if (f.message !== undefined && typeof f.message !== 'string') bad('message must be a string');
  }
  if (f.type === 'http5xx' && f.status !== undefined && !isInt(f.status, 500, 599)) bad('status must be from 500 to 599');
  if (f.type === 'garbage' && f.variant !== undefined && !VARIANTS.has(f.variant as string)) {
    bad(`variant must be one of ${[...VARIANTS].join(', ')}`);
  }
  return Object.freeze({ ...f, endpoint, count }) as FaultSpec;
}

interface Queued {
  spec: FaultSpec;
  remaining: number;
}

/** Injected faults, consumed in order by matching requests. */
export class FaultQueue {
  private queue: Queued[] = [];

  add(raw: unknown): FaultSpec {
    const spec = validateFault(raw);
    this.queue.push({ spec, remaining: spec.count ?? 1 });
    return spec;
  }

  /** The fault for this request, if any, consuming one use of it. */
  take(endpoint: Exclude<FaultEndpoint, 'any'>, reusedSocket: boolean): FaultSpec | undefined {
    const i = this.queue.findIndex(({ spec }) =>
      (spec.endpoint === 'any' || spec.endpoint === endpoint) && (spec.type !== 'reset-reused' || reusedSocket));
    const hit = this.queue[i];
    if (!hit) return undefined;
    hit.remaining -= 1;
    if (hit.remaining <= 0) this.queue.splice(i, 1);
    return hit.spec;
  }

  pending(): FaultSpec[] {
    return this.queue.map(({ spec, remaining }) => ({ ...spec, count: remaining }));
  }

  clear(): number {
    const n = this.queue.length;
    this.queue = [];
    return n;
  }
}
