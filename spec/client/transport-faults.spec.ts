import { PlatformClient } from '../../lib/index.js';
import { DEFAULT_RETRY_AFTER_SECONDS } from '../../lib/errors/index.js';
import type { Emulator, FaultSpec } from '../../lib/emulator/index.js';
import { DEMO, configFor, recordEvents, rejectionOf, startTestEmulator } from '../support/client-harness.js';
import { expectPlatformError } from '../support/client-expect.js';

// A hang or a late answer ends at the budget: the short one a timeout case takes. Faults that
// answer at once get the harness's patient budget, so E1 is never the one to time out.
const SHORT = { timeoutMs: 600, totalTimeoutMs: 1500 };
const isTimeout = (fault: FaultSpec): boolean => fault.type === 'hang' || fault.type === 'latency';
const FAULTS: [string, FaultSpec, string][] = [
  ['a hang', { endpoint: 'E2', type: 'hang', count: 50 }, 'did not answer in time'],
  ['latency above the timeout', { endpoint: 'E2', type: 'latency', latencyMs: 900, count: 50 }, 'did not answer in time'],
  ['a dropped connection', { endpoint: 'E2', type: 'drop', count: 50 }, 'could not be reached'],
  ['a 502 HTML page', { endpoint: 'E2', type: 'http5xx', status: 502, count: 50 }, 'HTTP 502'],
  ['a 503 HTML page', { endpoint: 'E2', type: 'http5xx', status: 503, count: 50 }, 'HTTP 503'],
  ['a text body', { endpoint: 'E2', type: 'garbage', variant: 'text', count: 50 }, 'not the expected JSON'],
  ['JSON without code', { endpoint: 'E2', type: 'garbage', variant: 'json-without-code', count: 50 }, 'not the expected JSON'],
  ['an empty body', { endpoint: 'E2', type: 'garbage', variant: 'empty', count: 50 }, 'not the expected JSON'],
  ['E1 hanging', { endpoint: 'E1', type: 'hang', count: 50 }, 'did not answer in time on E1'],
  ['E1 returning 5xx', { endpoint: 'E1', type: 'http5xx', count: 50 }, 'HTTP 502'],
];

describe.each(['ok', 'http'] as const)('transport faults with errorStatus "%s"', (errorStatus) => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ errorStatus });
  });
  afterAll(() => emulator.close());

  it.each(FAULTS)('answers %s with 503 retry_later within the budget', async (_name, fault, words) => {
    emulator.clearFaults();
    const client = new PlatformClient(configFor(emulator, { ...(isTimeout(fault) ? SHORT : {}), retries: 2 }));
    const { calls } = recordEvents(client);
    try {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      emulator.injectFault(fault);
      const error = expectPlatformError(await rejectionOf(() => client.verifyUserToken(token)), 'platform_unavailable', 503);
      expect([error.action, error.retryAfterSeconds, error.code]).toEqual(['retry_later', DEFAULT_RETRY_AFTER_SECONDS, undefined]);
      expect(error.message).toContain(words);
      expect(calls.at(-1)).toMatchObject({ outcome: 'failed', kind: 'platform_unavailable' });
      expect(calls.at(-1)?.attempts).toBeLessThanOrEqual(4);
    } finally {
      void client.close();
      emulator.clearFaults();
    }
  });
});
