import type { FaultSpec } from '../../lib/emulator/index.js';
import { DEMO } from '../support/app-harness.js';
import { expectContactSupport, expectPlayer, expectRetryLater } from './support/fault-expect.js';
import { TIMEOUT_BUDGET, startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Platform faults and their answers, the cases about our own
// side: configuration faults (500, one log line, no E1 storm) and E1
// unreachable at startup.



describe.each<[string, FaultSpec, number, RegExp]>([
  ['40101 again after the reissue', { endpoint: 'E2', type: 'code', code: 40101, count: -1 }, 40101, /after one reissue.*PLATFORM_CLIENT_ID/],
  ['E1 40105', { endpoint: 'E1', type: 'code', code: 40105, count: -1 }, 40105, /PLATFORM_CLIENT_SECRET/],
  ['E1 41002', { endpoint: 'E1', type: 'code', code: 41002, count: -1 }, 41002, /PLATFORM_GAME_ID/],
  ['E2 41002', { endpoint: 'E2', type: 'code', code: 41002, count: -1 }, 41002, /PLATFORM_GAME_ID/],
])('%s', (_name, fault, code, fix) => {
  let app: ReliabilityApp;
  beforeAll(async () => {
    app = await startReliabilityApp();
  });
  afterAll(() => app.close());

  it('answers 500 contact_support, logs one clear line naming the fix, and makes no storm of E1 calls', async () => {
    if (fault.endpoint === 'E2') expectPlayer(await app.bearer(app.token(DEMO.player)));
    app.emulator.clearRequests();
    app.emulator.injectFault(fault);
    for (let i = 0; i < 8; i += 1) expectContactSupport(await app.bearer(app.token(DEMO.player)), code);
    expect(app.count('E1')).toBeLessThanOrEqual(1);
    const errors = app.clientLog.lines.filter((line) => line.level === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]?.msg).toMatch(fix);
    expect(app.events.circuits).toEqual([]);
  });
});

describe('E1 unreachable at startup', () => {
  it.each<[string, FaultSpec]>([
    ['dropped connections', { endpoint: 'E1', type: 'drop', count: -1 }],
    ['5xx HTML pages', { endpoint: 'E1', type: 'http5xx', count: -1 }],
    ['a hang', { endpoint: 'E1', type: 'hang', count: -1 }],
  ])('%s: the app starts, protected routes answer 503 until E1 succeeds', async (_name, fault) => {
    // A hang ends only at the budget: the short one a timeout case takes.
    const app = await startReliabilityApp(fault.type === 'hang' ? { client: TIMEOUT_BUDGET } : {});
    try {
      app.emulator.injectFault(fault);
      expect((await app.send({ path: '/healthz' })).status).toBe(200);
      for (let i = 0; i < 2; i += 1) expectRetryLater(await app.bearer(app.token(DEMO.player)));
      expect(app.count('E2')).toBe(0);
      app.emulator.clearFaults();
      expectPlayer(await app.bearer(app.token(DEMO.player)));
    } finally {
      await app.close();
    }
  });
});
