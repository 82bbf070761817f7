import { inspect } from 'node:util';
import { PlatformClient } from '../../lib/index.js';
import type { PlatformConfig } from '../../lib/index.js';
import type { Emulator, FaultSpec } from '../../lib/emulator/index.js';
import { DEMO, recordingLogger, configFor, recordEvents, renderings, startTestEmulator } from '../support/client-harness.js';

// Every failure kind, then every thrown error, log line and event payload is
// searched for the client secret, the API tokens and the user tokens.
describe('secret scan', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator({ errorStatus: 'http' });
  });
  afterAll(() => emulator.close());

  it('finds no secret in any error, log line or event, across all failure kinds', async () => {
    const logger = recordingLogger();
    const secrets = new Set<string>([DEMO.clientSecret]);
    const output: string[] = [];
    const errors: unknown[] = [];
    const clients: PlatformClient[] = [];
    const make = (overrides: Partial<PlatformConfig> = {}): PlatformClient => {
      const c = new PlatformClient(configFor(emulator, { logger, timeoutMs: 100, totalTimeoutMs: 400, retries: 1, ...overrides }));
      clients.push(c);
      return c;
    };
    const attempt = async (fn: () => Promise<unknown>): Promise<void> => {
      try {
        await fn();
      } catch (error) {
        errors.push(error);
      }
    };
    // Collects a client's API token for the scan. Setup, not a failure kind: on a busy machine an
    // E1 call may outlast the 100 ms attempt budget, so it is asked again (its error is scanned too).
    const apiToken = async (c: PlatformClient): Promise<string> => {
      for (let tries = 1; ; tries += 1) {
        try {
          return await c.provider.getToken();
        } catch (error) {
          errors.push(error);
          if (tries === 20) throw error;
        }
      }
    };
    const userToken = (): string => {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.add(token);
      return token;
    };
    const client = make();
    const events = recordEvents(client);
    const e2Faults: FaultSpec[] = [
      ...[40000, 46217, 41002, 50000, 40105, 12345].map((code): FaultSpec => ({ endpoint: 'E2', type: 'code', code, count: 5 })),
      { endpoint: 'E2', type: 'hang', count: 5 },
      { endpoint: 'E2', type: 'drop', count: 5 },
      { endpoint: 'E2', type: 'http5xx', count: 5 },
      { endpoint: 'E2', type: 'garbage', variant: 'html', count: 5 },
      { endpoint: 'E2', type: 'code', code: 40103, count: 1 },
      { endpoint: 'E2', type: 'code', code: 40101, count: -1 },
    ];
    for (const fault of e2Faults) {
      emulator.clearFaults();
      emulator.injectFault(fault);
      await attempt(() => client.verifyUserToken(userToken()));
      secrets.add(await apiToken(client));
    }
    emulator.clearFaults();
    for (const token of ['', 'bad token', `${userToken()}\r\n`]) await attempt(() => client.verifyUserToken(token));
    emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40000, count: 1 });
    await attempt(() => client.lookupMember({ memberNo: DEMO.admin }));
    await attempt(() => client.lookupMember({ memberNo: 'abc' }));
    const webToken = emulator.issueWebToken(DEMO.admin);
    secrets.add(webToken);
    await attempt(() => client.verifyWebToken(`${webToken}x`));
    const wrongSecret = 'wrong-but-still-a-secret';
    secrets.add(wrongSecret);
    const misconfigured = make({ clientSecret: wrongSecret });
    const misconfiguredEvents = recordEvents(misconfigured);
    await attempt(() => misconfigured.verifyUserToken(userToken()));
    const cold = make();
    const coldEvents = recordEvents(cold);
    emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 5 });
    await attempt(() => cold.verifyUserToken(userToken()));
    const crowded = make({ maxConcurrentCalls: 1, maxQueuedCalls: 0 });
    emulator.clearFaults();
    await apiToken(crowded);
    secrets.add(await apiToken(crowded));
    emulator.injectFault({ endpoint: 'E2', type: 'latency', latencyMs: 50, count: 1 });
    await Promise.all([userToken(), userToken()].map((t) => attempt(() => crowded.verifyUserToken(t))));

    expect(errors.length).toBeGreaterThanOrEqual(e2Faults.length + 8);
    for (const error of errors) output.push(...renderings(error));
    for (const line of logger.lines) output.push(...renderings(line.obj), line.msg ?? '');
    for (const recorded of [events, misconfiguredEvents, coldEvents]) {
      for (const event of [...recorded.calls, ...recorded.tokens]) output.push(...renderings(event));
    }
    for (const c of clients) output.push(inspect(c, { depth: 6, showHidden: true }), inspect(c.provider, { depth: 6 }), JSON.stringify(c.config));
    expect(logger.lines.length).toBeGreaterThan(5);
    expect(secrets.size).toBeGreaterThan(20);
    const text = output.join('\n');
    for (const secret of secrets) {
      if (secret.length < 8) continue;
      expect({ secret: `${secret.slice(0, 4)}...`, found: text.includes(secret) }).toEqual({ secret: `${secret.slice(0, 4)}...`, found: false });
    }
    for (const c of clients) void c.close();
  });
});
