import type { FaultSpec } from '../../lib/emulator/index.js';
import { DEMO } from '../support/app-harness.js';
import { expectPlayer, expectRetryLater, timed } from './support/fault-expect.js';
import { PATIENT_BUDGET, TIMEOUT_BUDGET, startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Platform faults and their answers, through the example app
// with the emulator's fault injection: the answer, the platform calls (the
// attempts the budget allows, never more), and recovery. The configuration and
// startup rows are in fault-matrix-config.spec.ts, the 1,000-request rows in
// concurrency.spec.ts, the keep-alive reset, the refused API token handed back
// and the run of 40000s in platform-traps.spec.ts.

const ATTEMPTS = PATIENT_BUDGET.retries + 1;

describe('platform faults through the example app', () => {
  let app: ReliabilityApp;
  beforeAll(async () => {
    app = await startReliabilityApp();
    expectPlayer(await app.bearer(app.token(DEMO.player))); // warm: API token held
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.emulator.clearFaults();
    app.emulator.clearRequests();
  });

  const recovers = async (): Promise<void> => {
    app.emulator.clearFaults();
    app.emulator.clearRequests();
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    expect(app.count('E2')).toBe(1);
  };

  describe('E2 50000, 5xx with an HTML body, connection reset, garbage body', () => {
    const faults: Array<[string, FaultSpec, number | undefined]> = [
      ['code 50000', { type: 'code', code: 50000 }, 50000],
      ['code 50000 with HTTP 500', { type: 'code', code: 50000, status: 500 }, 50000],
      ['502 with an HTML body', { type: 'http5xx', status: 502 }, undefined],
      ['503 with an HTML body', { type: 'http5xx', status: 503 }, undefined],
      ['500 with an HTML body', { type: 'http5xx', status: 500 }, undefined],
      ['a connection reset', { type: 'drop' }, undefined],
      ['an HTML page with HTTP 200', { type: 'garbage', variant: 'html' }, undefined],
      ['a text body', { type: 'garbage', variant: 'text' }, undefined],
      ['JSON without a code', { type: 'garbage', variant: 'json-without-code' }, undefined],
      ['truncated JSON', { type: 'garbage', variant: 'truncated-json' }, undefined],
      ['an empty body', { type: 'garbage', variant: 'empty' }, undefined],
    ];

    it.each(faults)('%s, passing: retried within the budget, the player never notices', async (_name, fault) => {
      app.emulator.injectFault({ endpoint: 'E2', count: 2, ...fault });
      expectPlayer(await app.bearer(app.token(DEMO.player)));
      expect(app.count('E2')).toBe(3);
    });

    it.each(faults)('%s, lasting: 503 retry_later with Retry-After after the retries, then recovery', async (_name, fault, code) => {
      app.emulator.injectFault({ endpoint: 'E2', count: -1, ...fault });
      expectRetryLater(await app.bearer(app.token(DEMO.player)), code);
      // A reset on a reused keep-alive socket earns one extra immediate retry (the keep-alive reset race).
      const extra = fault.type === 'drop' ? 1 : 0;
      expect(app.count('E2')).toBeGreaterThanOrEqual(ATTEMPTS);
      expect(app.count('E2')).toBeLessThanOrEqual(ATTEMPTS + extra);
      expect(app.count('E1')).toBe(0);
      await recovers();
    });
  });

  it.each([40101, 40103])('E2 %i: one reissue and one retry; the player never notices', async (code) => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'code', code, count: 1 });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    expect([app.count('E1'), app.count('E2')]).toEqual([1, 2]);
  });

  it('E3 40101: one reissue and one retry on the admin lookup', async () => {
    app.emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, count: 1 });
    const res = await app.bearer(app.token(DEMO.admin), `/admin/members?search_type=member_no&value=${DEMO.player}`);
    expectPlayer(res);
    expect([app.count('E1'), app.count('E3')]).toEqual([1, 2]);
  });
});

describe('a platform that hangs or answers after the per-attempt timeout', () => {
  // The one case here that is a timeout: its own short budget.
  let app: ReliabilityApp;
  beforeAll(async () => {
    app = await startReliabilityApp({ client: TIMEOUT_BUDGET });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
  });
  afterAll(() => app.close());
  beforeEach(() => {
    app.emulator.clearFaults();
    app.emulator.clearRequests();
  });

  it.each<[string, FaultSpec]>([
    ['a hang', { endpoint: 'E2', type: 'hang', count: -1 }],
    ['an answer later than the per-attempt timeout', { endpoint: 'E2', type: 'latency', latencyMs: TIMEOUT_BUDGET.timeoutMs + 150, count: -1 }],
  ])('%s: 503 once the budget is spent (never a hung request), within the attempts it allows', async (_name, fault) => {
    app.emulator.injectFault(fault);
    const { value, ms } = await timed(() => app.bearer(app.token(DEMO.player)));
    expectRetryLater(value);
    expect(ms).toBeGreaterThanOrEqual(TIMEOUT_BUDGET.timeoutMs);
    expect(app.events.calls.at(-1)).toMatchObject({ endpoint: 'E2', outcome: 'failed', kind: 'platform_unavailable' });
    expect(app.count('E2')).toBeGreaterThanOrEqual(2);
    expect(app.count('E2')).toBeLessThanOrEqual(TIMEOUT_BUDGET.retries + 1);
    app.emulator.clearFaults();
    app.emulator.clearRequests();
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    expect(app.count('E2')).toBe(1);
  });
});

describe('a platform that answers slowly, inside or past the per-attempt timeout', () => {
  // A wide margin either side of the timeout (1.5 s inside it, one answer well past it), so
  // event-loop lag on a loaded machine cannot move an answer across it.
  const BUDGET = { timeoutMs: 2000, totalTimeoutMs: 6000, retries: 2 };
  let app: ReliabilityApp;
  beforeAll(async () => {
    app = await startReliabilityApp({ client: BUDGET });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
  });
  afterAll(() => app.close());
  beforeEach(() => app.emulator.clearRequests());

  it('a slow answer inside the per-attempt timeout is served, with one call', async () => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 500, count: -1 });
    const { value, ms } = await timed(() => app.bearer(app.token(DEMO.player)));
    app.emulator.clearFaults();
    expectPlayer(value);
    expect(app.count('E2')).toBe(1);
    expect(ms).toBeGreaterThanOrEqual(500);
  });

  it('one answer past the timeout is retried and served within the budget', async () => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: BUDGET.timeoutMs + 500, count: 1 });
    const { value, ms } = await timed(() => app.bearer(app.token(DEMO.player)));
    expectPlayer(value);
    expect(app.count('E2')).toBe(2);
    expect(ms).toBeGreaterThanOrEqual(BUDGET.timeoutMs);
  });
});
