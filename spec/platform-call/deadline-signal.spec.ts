import { performance } from 'node:perf_hooks';
import { PlatformHttp } from '../../lib/platform-call/index.js';
import { DeadlineSignal } from '../../lib/platform-call/deadline-signal.js';
import { startRawServer } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';
import { rejectionOf } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

describe('DeadlineSignal', () => {
  it('aborts once at the deadline and calls the listeners still registered', async () => {
    const signal = new DeadlineSignal(20);
    const calls: string[] = [];
    const removed = (): void => void calls.push('removed');
    signal.addEventListener('abort', () => calls.push('a'));
    signal.addEventListener('abort', removed);
    signal.addEventListener('abort', () => {
      throw new Error('a throwing listener');
    });
    signal.addEventListener('abort', () => calls.push('b'));
    signal.removeEventListener('abort', removed);
    expect(signal.aborted).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect([signal.aborted, calls]).toEqual([true, ['a', 'b']]);
    signal.dispose();
  });

  it('never aborts once disposed', async () => {
    const signal = new DeadlineSignal(10);
    let called = false;
    signal.addEventListener('abort', () => {
      called = true;
    });
    signal.dispose();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect([signal.aborted, called]).toEqual([false, false]);
  });
});

describe('The total budget', () => {
  let server: RawServer | undefined;
  let http: PlatformHttp | undefined;
  afterEach(async () => {
    void http?.close();
    await server?.close();
  });

  // Each attempt's own time bounds its body too, not only the wait for its headers.
  it('ends a call whose body trickles in, within the total budget', async () => {
    const timers: NodeJS.Timeout[] = [];
    server = await startRawServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"code":0,"pad":"');
      const drip = setInterval(() => res.write('x'), 30);
      timers.push(drip);
      res.on('close', () => clearInterval(drip));
    });
    http = new PlatformHttp({
      baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g', timeoutMs: 100, totalTimeoutMs: 400, retries: 2,
    });
    const started = performance.now();
    const error = await rejectionOf(() => (http as PlatformHttp).request({ endpoint: 'E3', method: 'GET', path: '/m', headers: {} }));
    const elapsed = performance.now() - started;
    for (const drip of timers) clearInterval(drip);
    expect(expectPlatformError(error, 'platform_unavailable', 503).message).toContain('did not answer in time');
    // The body never ends: only the deadline can have ended the call.
    expect(elapsed).toBeGreaterThanOrEqual(100);
  });
});

describe('The per-attempt timeout', () => {
  let server: RawServer | undefined;
  let http: PlatformHttp | undefined;
  afterEach(async () => {
    await http?.close();
    await server?.close();
  });

  // A non-JSON body trickling a byte every 50 ms must not hold one attempt for the whole budget.
  it('bounds the body of each attempt too: a trickling body costs timeoutMs per attempt, not the whole budget', async () => {
    const started: number[] = [];
    server = await startRawServer((_req, res) => {
      started.push(performance.now());
      res.writeHead(502, { 'content-type': 'text/html' });
      res.write('<html>');
      const drip = setInterval(() => res.write('x'), 50);
      res.on('close', () => clearInterval(drip));
    });
    http = new PlatformHttp({
      baseUrl: server.url, clientId: 'c', clientSecret: 's', gameId: 'g',
      timeoutMs: 150, totalTimeoutMs: 5000, retries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 1, circuitBreaker: false,
    });
    const t0 = performance.now();
    const error = await rejectionOf(() => (http as PlatformHttp).request({ endpoint: 'E3', method: 'GET', path: '/m', headers: {} }));
    const elapsed = performance.now() - t0;
    expect(expectPlatformError(error, 'platform_unavailable', 503).message).toContain('did not answer in time');
    // Two attempts, then the 503: an attempt held for the whole 5 s budget would leave no time for a second.
    expect(started).toHaveLength(2);
    expect(elapsed).toBeGreaterThanOrEqual(290);
  });
});
