import { performance } from 'node:perf_hooks';
import { resolvePlatformConfig } from '../../lib/config/index.js';
import { silentLogger } from '../../lib/logging/index.js';
import type { Attempt, Call } from '../../lib/platform-call/call-state.js';
import { DeadlineSignal } from '../../lib/platform-call/deadline-signal.js';
import type { PlatformRequest } from '../../lib/platform-call/platform-http.js';
import { callOutcome, sendAttempt, tracedAttempt } from '../../lib/platform-call/platform-http.js';
import { pause, retryDelay } from '../../lib/platform-call/retry-delay.js';
import { Transport } from '../../lib/platform-call/transport.js';
import { sendJsonText, startRawServer } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';

// The steps PlatformHttp.request composes, each on its own: one attempt (never rejects), the
// same attempt traced, the wait before a retry, and the reading of the last attempt.

const POST: PlatformRequest = {
  endpoint: 'E2', method: 'POST', path: '/member/v3.0/g/token/verify',
  headers: { 'Content-Type': 'application/json' }, body: { access_token: 't' },
};

const config = resolvePlatformConfig({
  baseUrl: 'http://127.0.0.1:1', clientId: 'c', clientSecret: 's', gameId: 'g', logger: silentLogger,
  timeoutMs: 2000, totalTimeoutMs: 5000, retries: 1, retryBaseDelayMs: 5, retryMaxDelayMs: 20, circuitBreaker: false,
});

function newCall(signal = new DeadlineSignal(5000)): Call {
  return {
    endpoint: 'E2', signal, deadline: performance.now() + 5000, stats: { attempts: 1 }, retries: 0, resetRetried: false,
    admitted: true, callerGone: false, exchange: undefined, older: undefined, newer: undefined,
  };
}

describe('the steps of one platform call', () => {
  /** Transports and servers a test opened, closed in that order after it. */
  const opened: { close(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const one of opened.splice(0)) await one.close();
  });
  const serve = async (text: string): Promise<RawServer> => {
    const server = await startRawServer((_req, res) => sendJsonText(res, 200, text));
    opened.push(server);
    return server;
  };
  const transportTo = (url: string): Transport => {
    const transport = new Transport(url, { timeoutMs: 2000 });
    opened.unshift(transport);
    return transport;
  };

  it('sends one attempt and reads its answer; the traced attempt resolves with the same reading', async () => {
    const server = await serve('{"code":0,"value":{"member_no":1}}');
    const transport = transportTo(server.url);
    const call = newCall();
    const sent = await sendAttempt(transport, POST, call, 2000);
    const traced = await tracedAttempt(transport, POST, call, 2000, '127.0.0.1');
    for (const attempt of [sent, traced]) {
      expect(attempt.status).toBe(200);
      expect(callOutcome(attempt, call, config).reply).toMatchObject({ status: 200, code: 0 });
    }
    expect([server.requests.length, call.exchange]).toEqual([2, undefined]);
  });

  it('resolves, never rejects, when the platform cannot be reached', async () => {
    const transport = transportTo('http://127.0.0.1:1');
    const call = newCall();
    const attempt = await sendAttempt(transport, POST, call, 2000);
    expect(attempt.status).toBeUndefined();
    expect(callOutcome(attempt, call, config).failure?.verdict).toBe('failure');
  });

  it('sends nothing once the call\'s deadline has passed', async () => {
    const server = await serve('{"code":0}');
    const transport = transportTo(server.url);
    const signal = new DeadlineSignal(5000);
    signal.abort('deadline');
    const attempt = await sendAttempt(transport, POST, newCall(signal), 2000);
    expect(attempt).toMatchObject({ status: undefined, code: 'ERR_CANCELED' });
    expect(server.requests).toEqual([]);
  });

  it('retries a reset reused socket once at once, then by the rules', () => {
    const reset: Attempt = { status: undefined, error: undefined, code: 'ECONNRESET', reused: true, timedOut: false };
    const call = newCall();
    expect(retryDelay(reset, call, config)).toBe(0);
    const delay = retryDelay(reset, call, config);
    expect(delay).toBeGreaterThanOrEqual(0);
    expect([call.resetRetried, call.retries]).toEqual([true, 1]);
    expect(retryDelay(reset, call, config)).toBeUndefined();
  });

  it('ends a pause early when the call\'s signal aborts', async () => {
    const signal = new DeadlineSignal(Infinity);
    let ended = false;
    const paused = pause(10_000, signal).then(() => {
      ended = true;
    });
    // Still waiting on its 10 s timer until the signal aborts; settled within the same turn after.
    await new Promise(setImmediate);
    expect(ended).toBe(false);
    signal.abort('caller');
    await new Promise(setImmediate);
    expect(ended).toBe(true);
    await paused;
  });
});
