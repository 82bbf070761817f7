import { randomBytes } from 'node:crypto';
import { DEMO } from '../support/app-harness.js';
import { expectRetryLater } from './support/fault-expect.js';
import { jsonOf } from '../support/raw-http.js';
import type { RawReply } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import { until } from '../support/until.js';
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
    // At once: without a platform call, so without waiting on one.
    for (let i = 0; i < 20; i += 1) expectRetryLater(await app.bearer(app.token(DEMO.player)));
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
    const slow = await startReliabilityApp({ client: { retries: 0, circuitBreaker: { failureThreshold: THRESHOLD, openMs: OPEN_MS } } });
    try {
      slow.emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: THRESHOLD });
      for (let i = 0; i < THRESHOLD; i += 1) expectRetryLater(await slow.bearer(slow.token(DEMO.player)));
      slow.emulator.clearRequests();
      // The probe's answer waits until the other 30 have been answered, however slow the machine.
      slow.emulator.injectFault({ endpoint: 'E2', type: 'hold', count: 1 });
      slow.clock.advance(OPEN_MS);
      const probe = slow.bearer(slow.token(DEMO.player));
      await until(() => slow.emulator.held() === 1, 15_000, 'the probe at the platform');
      const others = await Promise.all(Array.from({ length: 30 }, () => slow.bearer(slow.token(DEMO.player))));
      expect(others.map((r) => r.status)).toEqual(Array.from({ length: 30 }, () => 503));
      expect(slow.count('E2')).toBe(1);
      expect(slow.emulator.releaseHeld()).toBe(1);
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
    const app = await startReliabilityApp({ client: { maxConcurrentCalls: 4, maxQueuedCalls: 8, circuitBreaker: { failureThreshold: 3 } } });
    try {
      expectPlayer(await app.bearer(app.token(DEMO.player)));
      app.emulator.clearRequests();
      // The platform answers nothing until every request has been let in or refused: the counts
      // cannot depend on how fast the machine sends the 40 requests.
      app.emulator.injectFault({ endpoint: 'E2', type: 'hold', count: -1 });
      let refused = 0;
      const replies = Promise.all(Array.from({ length: 40 }, async () => {
        const reply = await app.bearer(app.token(DEMO.player));
        if (reply.status === 503) refused += 1;
        return reply;
      }));
      await until(() => refused === 28 && app.emulator.held() === 4, 15_000, '28 refusals and 4 calls at the platform');
      expect(app.client.load).toEqual({ active: 4, queued: 8, circuit: 'closed' });
      app.emulator.clearFaults(); // the 8 queued calls are answered at once when they get a slot
      expect(app.emulator.releaseHeld()).toBe(4);
      const all = await replies;
      expect(all.filter((r) => r.status === 200)).toHaveLength(12);
      expect(all.filter((r) => r.status === 503)).toHaveLength(28);
      expect(app.count('E2')).toBe(12);
      // Our own limit says nothing about the platform: the circuit stays closed.
      expect(app.events.circuits).toEqual([]);
      expect(app.client.load).toEqual({ active: 0, queued: 0, circuit: 'closed' });
    } finally {
      await app.close();
    }
  });
});
