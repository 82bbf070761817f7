import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import type { EndpointName } from '../../../lib/emulator/index.js';
import type { CallEvent, Clock, TokenEvent } from '../../../lib/index.js';
import type { CircuitEvent } from '../../../lib/platform-call/index.js';
import type { ProbeEvent } from '../../../lib/client/index.js';
import { recordingLogger, startAppHarness } from '../../support/app-harness.js';
import type { AppHarness, AppHarnessOptions } from '../../support/app-harness.js';
import { sendRaw } from '../../support/raw-http.js';
import type { RawReply, RawSpec } from '../../support/raw-http.js';

/** A clock the test moves (the circuit breaker's open period, the 40000-run window, backoffs). */
export interface ManualClock extends Clock {
  advance(ms: number): void;
}

/** Starts at the real time and moves only when told (exact, like the emulator's frozen clock). */
export function manualClock(): ManualClock {
  let now = Date.now();
  return { now: () => now, advance: (ms) => void (now += ms) };
}

/**
 * The app's budgets unless a test sets its own: time a busy machine cannot outlast (an answer
 * the emulator gives at once never times out), 2 retries, short back-offs.
 */
export const PATIENT_BUDGET = { timeoutMs: 10_000, totalTimeoutMs: 30_000, retries: 2, retryBaseDelayMs: 10, retryMaxDelayMs: 50 } as const;

/**
 * Short budgets, only for a test whose case is a timeout (a hang, an answer later than the
 * attempt's time): 400 ms per attempt, 1.5 s in all, 2 retries.
 */
export const TIMEOUT_BUDGET = { ...PATIENT_BUDGET, timeoutMs: 400, totalTimeoutMs: 1500 } as const;

/** The example app on a loopback port, its emulator, a movable clock, and every event. */
export interface ReliabilityApp extends AppHarness {
  port: number;
  clock: ManualClock;
  /** The package's own log (the client's logger); `logger` is the app's. */
  clientLog: ReturnType<typeof recordingLogger>;
  events: { calls: CallEvent[]; circuits: CircuitEvent[]; probes: ProbeEvent[]; tokens: TokenEvent[] };
  /** Every error that reached the app's error handler (`next(err)`), as received. */
  handled: unknown[];
  /** Requests the emulator saw on one endpoint. */
  count(endpoint: EndpointName): number;
  send(spec?: RawSpec): Promise<RawReply>;
  /** `GET path` with `Authorization: Bearer <token>`. */
  bearer(token: string, path?: string): Promise<RawReply>;
}

/** Wraps the app's error middleware so each error passed to `next()` is recorded first. */
export function captureHandledErrors(app: Express, into: unknown[]): void {
  const router = (app as unknown as { router: { stack: Array<{ handle: (...args: unknown[]) => unknown }> } }).router;
  let wrapped = 0;
  for (const layer of router.stack) {
    const original = layer.handle;
    if (original.length !== 4) continue;
    // Four parameters: Express recognises error middleware by its arity.
    layer.handle = function recordError(err: unknown, req: unknown, res: unknown, next: unknown) {
      into.push(err);
      return original(err, req, res, next);
    };
    wrapped += 1;
  }
  if (wrapped === 0) throw new Error('no error middleware found to wrap');
}

export async function startReliabilityApp(options: AppHarnessOptions = {}): Promise<ReliabilityApp> {
  const clock = manualClock();
  const clientLog = recordingLogger();
  const h = await startAppHarness({ ...options, client: { clock, ...PATIENT_BUDGET, logger: clientLog, ...options.client } });
  const events: ReliabilityApp['events'] = { calls: [], circuits: [], probes: [], tokens: [] };
  h.client.on('call', (e) => events.calls.push(e));
  h.client.on('circuit', (e) => events.circuits.push(e));
  h.client.on('probe', (e) => events.probes.push(e));
  h.client.provider.on('token', (e) => events.tokens.push(e));
  const handled: unknown[] = [];
  captureHandledErrors(h.app, handled);
  const server = createServer(h.app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep backlog: the concurrency tests open 1,000 connections at once.
    server.listen({ port: 0, host: '127.0.0.1', backlog: 2048 }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    ...h,
    port,
    clock,
    clientLog,
    events,
    handled,
    count: (endpoint) => h.emulator.requests({ endpoint }).length,
    send: (spec) => sendRaw(port, spec),
    bearer: (token, path = '/api/me') => sendRaw(port, { path, lines: [`Authorization: Bearer ${token}`] }),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await h.close();
    },
  };
}
