import { randomBytes } from 'node:crypto';
import { CONFIGURATION_BACKOFF_MS } from '../../lib/platform-call/index.js';
import { KEEP_ALIVE_IDLE_MS } from '../../lib/platform-call/index.js';
import { INVALID_TOKEN_RUN_LENGTH, INVALID_TOKEN_RUN_WINDOW_MS } from '../../lib/client/index.js';
import { DEMO } from '../support/app-harness.js';
import { expectContactSupport, expectRetryLater } from './support/fault-expect.js';
import { jsonOf } from '../support/raw-http.js';
import type { RawReply } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Three platform pitfalls, through the example app: a keep-alive socket reset under us,
// E1 handing a refused API token back, and a run of 40000s that is our API token's fault.

const PLAYER = { member_no: DEMO.player, guid: DEMO.playerGuid };
const garbage = (): string => randomBytes(24).toString('base64url');

function expectPlayer(res: RawReply): void {
  expect([res.status, jsonOf(res)]).toEqual([200, PLAYER]);
}

function expectRelogin(res: RawReply): void {
  expect(res.status).toBe(401);
  expect(jsonOf(res)).toMatchObject({ action: 'relogin', code: 40000 });
}

describe('platform traps through the example app', () => {
  let app: ReliabilityApp;
  beforeEach(async () => {
    // Budgets a busy machine cannot outlast: no trap here is a timeout, and a late attempt would read as one.
    app = await startReliabilityApp({ client: { retries: 0, timeoutMs: 3000, totalTimeoutMs: 6000 } });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    app.emulator.clearRequests();
  });
  afterEach(() => app.close());

  it('keep-alive reset: a keep-alive socket reset under us is retried once, even with retries: 0', async () => {
    expect(KEEP_ALIVE_IDLE_MS).toBeLessThan(5000); // below Node's server keep-alive
    app.emulator.injectFault({ endpoint: 'E2', type: 'reset-reused', count: 1 });
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    const e2 = app.emulator.requests({ endpoint: 'E2' });
    expect(e2.map((entry) => [entry.fault ?? null, entry.status])).toEqual([['reset-reused', null], [null, 200]]);
    expect(app.emulator.pendingFaults()).toEqual([]);
  });

  it('refused token handed back: E1 hands the refused token back: 500, one log line, no reissue loop, one more try after the backoff', async () => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: -1 });
    for (let i = 0; i < 10; i += 1) expectContactSupport(await app.bearer(app.token(DEMO.player)), 40101);
    expect([app.count('E1'), app.count('E2')]).toEqual([1, 11]);
    const errors = app.clientLog.lines.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.msg)).toEqual([expect.stringContaining('E1 handed the refused token back')]);
    app.clock.advance(CONFIGURATION_BACKOFF_MS + 1);
    for (let i = 0; i < 3; i += 1) expectContactSupport(await app.bearer(app.token(DEMO.player)), 40101);
    expect(app.count('E1')).toBe(2);
    expect(app.clientLog.lines.filter((line) => line.level === 'error')).toHaveLength(2);
    app.emulator.clearFaults();
    expectPlayer(await app.bearer(app.token(DEMO.player)));
  });

  it('40000 run: a run of 40000s across distinct tokens makes one E3 probe; a refused API token is reissued, and no player is told to log in again while our side is at fault', async () => {
    app.emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: -1 });
    app.emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, count: 1 });
    for (let i = 1; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(app.token(DEMO.player)));
    expect(app.count('E3')).toBe(0);
    // The probe blames our API token; the retry with the reissued one is refused too: 503, not 401.
    expectRetryLater(await app.bearer(app.token(DEMO.player)), 40000);
    expect([app.count('E3'), app.count('E1')]).toEqual([1, 1]);
    expect(app.events.probes).toEqual([expect.objectContaining({ outcome: 'api_token_refused', code: 40101, distinctTokens: INVALID_TOKEN_RUN_LENGTH })]);
    expect(app.events.calls.at(-1)).toMatchObject({ endpoint: 'E2', reissued: true, attempts: 2 });
    const errors = app.clientLog.lines.filter((line) => line.level === 'error');
    expect(errors.map((line) => line.msg)).toEqual([expect.stringContaining('refuses our API token too')]);
    // At most one probe per window, however long the run; while our side is suspected, 503 for everyone.
    for (let i = 0; i < 3 * INVALID_TOKEN_RUN_LENGTH; i += 1) expectRetryLater(await app.bearer(app.token(DEMO.player)), 40000);
    expect(app.count('E3')).toBe(1);
    // The next window's probe finds our token fine: the 40000s are the players' again.
    app.clock.advance(INVALID_TOKEN_RUN_WINDOW_MS + 1);
    for (let i = 1; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRetryLater(await app.bearer(garbage()), 40000);
    expectRelogin(await app.bearer(garbage()));
    expect(app.events.probes.map((p) => p.outcome)).toEqual(['api_token_refused', 'api_token_ok']);
    expectRelogin(await app.bearer(garbage()));
    app.emulator.clearFaults();
    expectPlayer(await app.bearer(app.token(DEMO.player)));
  });

  it('40000 run: when the probe finds our API token fine, the tokens really are bad: one info line, no reissue', async () => {
    for (let i = 0; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(garbage()));
    expect([app.count('E3'), app.count('E1')]).toEqual([1, 0]);
    expect(app.events.probes).toEqual([expect.objectContaining({ outcome: 'api_token_ok', code: 0 })]);
    expect(app.clientLog.lines.filter((line) => line.msg.includes('really are invalid'))).toHaveLength(1);
    expect(app.clientLog.lines.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
    app.clock.advance(INVALID_TOKEN_RUN_WINDOW_MS + 1);
    for (let i = 0; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(garbage()));
    expect(app.count('E3')).toBe(2);
  });

  it('40000 run: an E3 probe refused as a bad request blames our requests and reissues the API token', async () => {
    app.emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40000, count: 1 });
    for (let i = 1; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(garbage()));
    expectRetryLater(await app.bearer(garbage()), 40000);
    expect(app.events.probes).toEqual([expect.objectContaining({ outcome: 'request_refused', code: 40000 })]);
    expect(app.count('E1')).toBe(1);
    expect(app.clientLog.lines.filter((line) => line.level === 'error')[0]?.msg).toContain('look malformed');
  });

  it('40000 run: no probe for one token refused many times, or when a success breaks the run', async () => {
    const same = garbage();
    for (let i = 0; i < 2 * INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(same));
    expect(app.count('E3')).toBe(0);
    expectPlayer(await app.bearer(app.token(DEMO.player)));
    for (let round = 0; round < 3; round += 1) {
      for (let i = 1; i < INVALID_TOKEN_RUN_LENGTH; i += 1) expectRelogin(await app.bearer(garbage()));
      expectPlayer(await app.bearer(app.token(DEMO.player)));
    }
    expect(app.count('E3')).toBe(0);
    expect(app.events.probes).toEqual([]);
  });
});
