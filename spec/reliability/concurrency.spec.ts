import { DEMO } from '../support/app-harness.js';
import { jsonOf } from '../support/raw-http.js';
import type { RawReply } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Two platform-fault cases, "1,000 concurrent first requests" and
// "1,000 concurrent requests with one user token", over 1,000 real sockets.

const N = 1000;
const PLAYER = { member_no: DEMO.player, guid: DEMO.playerGuid };

/** Answers by status, plus the body of each answer that is not a 200 (to tell why). */
function tally(replies: RawReply[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const res of replies) {
    out[res.status] = ((out[res.status] as number | undefined) ?? 0) + 1;
    if (res.status !== 200) out[`body ${res.status}`] = res.body;
  }
  return out;
}

describe('a burst of 1,000 concurrent requests', () => {
  let app: ReliabilityApp;
  beforeEach(async () => {
    // Generous timeouts and no breaker: on a loaded 2-core machine, 1,000 sockets, the app and
    // the emulator share one event loop; this is about single flight, not about timeouts.
    app = await startReliabilityApp({ client: { timeoutMs: 30_000, totalTimeoutMs: 30_000, retries: 0, circuitBreaker: false } });
  });
  afterEach(() => app.close());

  it('1,000 concurrent first requests (distinct tokens) make one E1 call', async () => {
    const tokens = Array.from({ length: N }, () => app.token(DEMO.player));
    // E1 answers slowly, so every request arrives while it is in flight.
    app.emulator.injectFault({ endpoint: 'E1', type: 'latency', latencyMs: 600, count: 1 });
    const replies = await Promise.all(tokens.map((token) => app.bearer(token)));
    expect({ ...tally(replies), failures: app.events.calls.filter((e) => e.outcome !== 'success').slice(0, 3) }).toEqual({ '200': N, failures: [] });
    expect(replies.every((res) => jsonOf(res)?.member_no === PLAYER.member_no)).toBe(true);
    expect([app.count('E1'), app.count('E2')]).toEqual([1, N]);
    expect(app.events.tokens.filter((e) => e.type === 'issued')).toHaveLength(1);
  }, 60_000);

  it('1,000 concurrent requests with one user token make one E2 call', async () => {
    const token = app.token(DEMO.player);
    expect((await app.send({ path: '/healthz' })).status).toBe(200);
    // E2 answers slowly, so every request arrives while the one call is in flight.
    app.emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 2500, count: 1 });
    const replies = await Promise.all(Array.from({ length: N }, () => app.bearer(token)));
    expect(tally(replies)).toEqual({ '200': N });
    expect(replies.every((res) => JSON.stringify(jsonOf(res)) === JSON.stringify(PLAYER))).toBe(true);
    expect([app.count('E1'), app.count('E2')]).toEqual([1, 1]);
  }, 60_000);
});
