import { randomBytes } from 'node:crypto';
import { DEMO } from '../support/app-harness.js';
import { expectRetryLater, timed } from './support/fault-expect.js';
import { jsonOf } from '../support/raw-http.js';
import type { RawReply } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Fail fast while the platform is down, recover soon after it
// comes back, never open on invalid user tokens, cap calls in flight.

const THRESHOLD = 3;
const OPEN_MS = 2000;
const PLAYER = { member_no: DEMO.player, guid: DEMO.playerGuid };
const expectPlayer = (res: RawReply): void => expect([res.status, jsonOf(res)]).toEqual([200, PLAYER]);
const transitions = (app: ReliabilityApp): string[] => app.events.circuits.map((e) => `${e.previous}->${e.state}`);
const lines = (app: ReliabilityApp, level: string): string[] => app.clientLog.lines.filter((l) => l.level === level).map((l) => l.msg);

describe('the circuit breaker through the example app', () => {
  let app: ReliabilityApp;
  beforeEach(async () => {
    app = await startReliabilityApp({ client: { retries: 0, circuitBreaker: { failureThreshold: THRESHOLD, openMs: OPEN_MS } } });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    app.emulator.clearRequests();
  });
  afterEach(() => app.close());

  it('opens after the threshold, answers 503 at once without calling the platform, probes, and recovers', async () => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'drop', count: -1 });
    for (let i = 0; i < THRESHOLD; i += 1) expectRetryLater(await app.bearer(app.token(DEMO.player)));
    expect(transitions(app)).toEqual(['closed->open']);
    const calls = app.count('E2');
    for (let i = 0; i < 20; i += 1) {
      const { value, ms } = await timed(() => app.bearer(app.token(DEMO.player)));
      expectRetryLater(value);
      expect(ms).toBeLessThan(300);
    }
    expect(app.count('E2')).toBe(calls);
    expect(lines(app, 'warn').filter((m) => m.includes('calls are paused') || m.includes('in a row'))).toHaveLength(1);
    // The open period passes: one probe; the platform is still down, so it reopens.
    app.clock.advance(OPEN_MS);
    expectRetryLater(await app.bearer(app.token(DEMO.player)));
    expect(app.count('E2')).toBe(calls + 1);
    expectRetryLater(await app.bearer(app.token(DEMO.player)));
    expect(app.count('E2')).toBe(calls + 1);
    expect(transitions(app)).toEqual(['closed->open', 'open->half-open', 'half-open->open']);
    // The platform recovers: within one open period, the probe closes the circuit.
    app.emulator.clearFaults();
    app.clock.advance(OPEN_MS);
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    for (let i = 0; i < 5; i += 1) expectPlayer(await app.bearer(app.token(DEMO.player)));
    expect(transitions(app)).toEqual(['closed->open', 'open->half-open', 'half-open->open', 'open->half-open', 'half-open->closed']);
    expect(app.client.load).toEqual({ active: 0, queued: 0, circuit: 'closed' });
    expect(lines(app, 'info').at(-1)).toContain('platform calls resumed');
  });

  it('lets only one probe through while it is in flight; the rest answer 503 at once', async () => {
    const slow = await startReliabilityApp({
      client: { retries: 0, timeoutMs: 3000, totalTimeoutMs: 3000, circuitBreaker: { failureThreshold: THRESHOLD, openMs: OPEN_MS } },
    });
    try {
      slow.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: THRESHOLD });
      for (let i = 0; i < THRESHOLD; i += 1) expectRetryLater(await slow.bearer(slow.token(DEMO.player)));
      slow.emulator.clearRequests();
      slow.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 800, count: 1 });
      slow.clock.advance(OPEN_MS);
      const probe = slow.bearer(slow.token(DEMO.player));
      while (slow.count('E2') === 0) await new Promise((resolve) => setImmediate(resolve));
      const others = await Promise.all(Array.from({ length: 30 }, () => slow.bearer(slow.token(DEMO.player))));
      expect(others.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 503));
      expect(slow.count('E2')).toBe(1);
      expectPlayer(await probe);
      expectPlayer(await slow.bearer(slow.token(DEMO.player)));
      expect(transitions(slow)).toEqual(['closed->open', 'open->half-open', 'half-open->closed']);
    } finally {
      await slow.close();
    }
  });

  it('never opens on invalid user tokens, unregistered devices or configuration codes', async () => {
    for (let i = 0; i < 10 * THRESHOLD; i += 1) {
      expect((await app.bearer(randomBytes(16).toString('hex'))).status).toBe(401);
    }
    for (let i = 0; i < 2 * THRESHOLD; i += 1) expect((await app.bearer(app.token(DEMO.unregistered))).status).toBe(403);
    app.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 41002, count: 2 * THRESHOLD });
    for (let i = 0; i < 2 * THRESHOLD; i += 1) expect((await app.bearer(app.token(DEMO.player))).status).toBe(500);
    // Failures interleaved with answers never add up either.
    for (let i = 0; i < 3; i += 1) {
      app.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: THRESHOLD - 1 });
      for (let j = 1; j < THRESHOLD; j += 1) expectRetryLater(await app.bearer(app.token(DEMO.player)));
      expect((await app.bearer(randomBytes(16).toString('hex'))).status).toBe(401);
    }
    expect(app.events.circuits).toEqual([]);
    expectPlayer(await app.bearer(app.token(DEMO.player)));
  });

  it('opens on E1 failures too, with one warning instead of one per request', async () => {
    const cold = await startReliabilityApp({ client: { retries: 0, circuitBreaker: { failureThreshold: THRESHOLD, openMs: OPEN_MS } } });
    try {
      cold.emulator.injectFault({ endpoint: 'E1', type: 'drop', count: -1 });
      for (let i = 0; i < 30; i += 1) expectRetryLater(await cold.bearer(cold.token(DEMO.player)));
      expect(cold.count('E1')).toBeLessThanOrEqual(THRESHOLD + 1);
      expect(transitions(cold)).toEqual(['closed->open']);
      expect(lines(cold, 'warn').length).toBeLessThanOrEqual(THRESHOLD + 2);
      cold.emulator.clearFaults();
      cold.clock.advance(OPEN_MS);
      expectPlayer(await cold.bearer(cold.token(DEMO.player)));
    } finally {
      await cold.close();
    }
  });
});

describe('the cap on platform calls in flight', () => {
  it('holds at most maxConcurrentCalls against a slow platform, queues a bounded few, refuses the rest at once', async () => {
    const app = await startReliabilityApp({
      client: { timeoutMs: 2000, totalTimeoutMs: 4000, maxConcurrentCalls: 4, maxQueuedCalls: 8, circuitBreaker: { failureThreshold: 3 } },
    });
    try {
      expectPlayer(await app.bearer(app.token(DEMO.player)));
      app.emulator.clearRequests();
      app.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 400, count: -1 });
      let peak = 0;
      let peakActive = 0;
      const poll = setInterval(() => {
        peak = Math.max(peak, app.emulator.requests({ endpoint: 'E2' }).filter((e) => e.status === null).length);
        peakActive = Math.max(peakActive, app.client.load.active);
      }, 5);
      const replies = await Promise.all(Array.from({ length: 40 }, () => app.bearer(app.token(DEMO.player))));
      clearInterval(poll);
      expect(replies.filter((r) => r.status === 200)).toHaveLength(12);
      expect(replies.filter((r) => r.status === 503)).toHaveLength(28);
      expect(app.count('E2')).toBe(12);
      expect(peak).toBeLessThanOrEqual(4);
      expect(peakActive).toBe(4);
      // Our own limit says nothing about the platform: the circuit stays closed.
      expect(app.events.circuits).toEqual([]);
      expect(app.client.load).toEqual({ active: 0, queued: 0, circuit: 'closed' });
    } finally {
      await app.close();
    }
  });
});
