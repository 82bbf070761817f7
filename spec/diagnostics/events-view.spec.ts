import { randomBytes } from 'node:crypto';
import diagnosticsChannel from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { jest } from '@jest/globals';
import { PlatformClient } from '../../lib/index.js';
import type { CallEvent, CircuitEvent, ProbeEvent, TokenEvent } from '../../lib/index.js';
import { CHANNELS } from '../../lib/diagnostics/channels.js';
import { INVALID_TOKEN_RUN_LENGTH } from '../../lib/platform-call/token-run-guard.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, recordingLogger, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';

const garbage = (): string => randomBytes(24).toString('base64url');

/** Every event of one client and its provider. */
function record(client: PlatformClient): { calls: CallEvent[]; circuits: CircuitEvent[]; probes: ProbeEvent[]; tokens: TokenEvent[] } {
  const seen = { calls: [] as CallEvent[], circuits: [] as CircuitEvent[], probes: [] as ProbeEvent[], tokens: [] as TokenEvent[] };
  client.on('call', (e) => seen.calls.push(e));
  client.on('circuit', (e) => seen.circuits.push(e));
  client.on('probe', (e) => seen.probes.push(e));
  client.provider.on('token', (e) => seen.tokens.push(e));
  return seen;
}

/** Every message of the channels the events are views of. */
function listen(): { messages: { channel: string; message: object }[]; stop: () => void } {
  const messages: { channel: string; message: object }[] = [];
  const names = [CHANNELS.call, CHANNELS.circuit, CHANNELS.probe, CHANNELS.apiTokenState];
  const handler = (message: unknown, name: string | symbol): void => void messages.push({ channel: String(name), message: message as object });
  for (const name of names) diagnosticsChannel.subscribe(name, handler);
  return { messages, stop: () => names.forEach((name) => diagnosticsChannel.unsubscribe(name, handler)) };
}

describe("the client's and provider's events: a per-instance view of the channels", () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(() => emulator.close());
  afterEach(() => jest.restoreAllMocks());

  it('never subscribes an instance to its own channels: listeners hear each fact directly, once', async () => {
    const subscribe = jest.spyOn(diagnosticsChannel, 'subscribe');
    const client = new PlatformClient(configFor(emulator));
    const names = (spy: typeof subscribe): unknown[] => spy.mock.calls.map((c) => c[0]);
    try {
      client.on('call', () => {});
      client.once('circuit', () => {});
      client.on('session-end', () => {});
      client.provider.on('token', () => {});
      expect(names(subscribe)).toEqual([]);
      client.removeAllListeners();
      const calls: CallEvent[] = [];
      client.on('call', (e) => calls.push(e));
      await client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token);
      expect(calls).toEqual([expect.objectContaining({ endpoint: 'E2', outcome: 'success', attempts: 1 })]);
      expect(names(subscribe)).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it("re-emits only its own instance's messages, with the documented payloads", async () => {
    const { messages, stop } = listen();
    const mine = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 }, circuitBreaker: { failureThreshold: 1, openMs: 60_000 }, retries: 0 }));
    const other = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 } }));
    const seen = record(mine);
    const others = record(other);
    try {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await other.verifyUserToken(token);
      await mine.verifyUserToken(token);
      await mine.verifyUserToken(token);
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 1 });
      await rejectionOf(() => mine.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token));
      expect([others.calls.length, others.tokens.length, others.circuits.length]).toEqual([1, 1, 0]);
      expect(seen.tokens).toEqual([{ type: 'issued', fingerprint: expect.stringMatching(/^[0-9a-f]{8}$/), expiresAt: expect.any(Number), durationMs: expect.any(Number) }]);
      expect(seen.calls).toEqual([
        { endpoint: 'E2', outcome: 'success', code: 0, durationMs: expect.any(Number), attempts: 1, tokenFingerprint: seen.tokens[0]!.fingerprint },
        { endpoint: 'E2', outcome: 'success', durationMs: 0, attempts: 0, cached: true },
        { endpoint: 'E2', outcome: 'failed', code: 50000, kind: 'platform_unavailable', durationMs: expect.any(Number), attempts: 1, tokenFingerprint: seen.tokens[0]!.fingerprint },
      ]);
      expect(seen.circuits).toEqual([{ state: 'open', previous: 'closed', failures: 1, endpoint: 'E2', openUntil: expect.any(Number) }]);
      // The channels carry both clients' messages; the event is the message (the circuit's without `reason`).
      expect(messages.filter((m) => m.channel === CHANNELS.call)).toHaveLength(4);
      const circuit = messages.find((m) => m.channel === CHANNELS.circuit)!.message;
      expect(circuit).toEqual({ ...seen.circuits[0], reason: 'E2: closed -> open' });
      // The instance's tag is not part of any payload: not enumerable, not serialised.
      for (const { message } of messages) {
        expect(Object.getOwnPropertySymbols(message).every((s) => !Object.getOwnPropertyDescriptor(message, s)!.enumerable)).toBe(true);
        expect(JSON.parse(JSON.stringify(message))).toEqual({ ...message });
      }
    } finally {
      stop();
      await mine.close();
      await other.close();
    }
  });

  it('reports a probe and every API-token change, and a dropped token makes no event', async () => {
    const { messages, stop } = listen();
    // Budgets a busy machine cannot outlast: a timed-out call would break the run of refusals the probe counts.
    const client = new PlatformClient(configFor(emulator, { retries: 0, timeoutMs: 5000, totalTimeoutMs: 10_000 }));
    const seen = record(client);
    try {
      await client.ready();
      for (let i = 0; i < INVALID_TOKEN_RUN_LENGTH; i += 1) await rejectionOf(() => client.verifyUserToken(garbage()));
      expect(seen.probes).toEqual([{
        reason: 'invalid_token_run', distinctTokens: INVALID_TOKEN_RUN_LENGTH, outcome: 'api_token_ok', code: 0, durationMs: expect.any(Number),
        tokenFingerprint: seen.tokens[0]!.fingerprint,
      }]);
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: 1 });
      await client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token);
      const states = messages.filter((m) => m.channel === CHANNELS.apiTokenState).map((m) => (m.message as { state: string }).state);
      expect(states).toEqual(['held', 'dropped', 'held']);
      expect(seen.tokens.map((t) => t.type)).toEqual(['issued', 'issued']);
      expect(seen.calls.at(-1)).toMatchObject({ endpoint: 'E2', outcome: 'success', attempts: 2, reissued: true });
    } finally {
      stop();
      await client.close();
    }
  });

  it('reports failed E1 calls as token events: refused (configuration) and unavailable', async () => {
    const refused = new PlatformClient(configFor(emulator, { clientSecret: 'wrong-secret-canary' }));
    const down = new PlatformClient(configFor(emulator, { baseUrl: 'http://127.0.0.1:9', retries: 0 }));
    const { messages, stop } = listen();
    const seen = record(refused);
    const seenDown = record(down);
    try {
      await rejectionOf(() => refused.provider.getToken());
      await rejectionOf(() => down.provider.getToken());
      expect(seen.tokens).toEqual([{ type: 'failed', durationMs: expect.any(Number), code: expect.any(Number), kind: 'configuration' }]);
      expect(seenDown.tokens).toEqual([{ type: 'failed', durationMs: expect.any(Number), kind: 'platform_unavailable' }]);
      expect(messages.map((m) => (m.message as { state: string }).state)).toEqual(['refused', 'unavailable']);
    } finally {
      stop();
      await refused.close();
      await down.close();
    }
  });

  it('logs a throwing listener and lets the operation go on', async () => {
    const logger = recordingLogger();
    const client = new PlatformClient(configFor(emulator, { logger }));
    client.on('call', () => {
      throw new Error('listener bug');
    });
    try {
      const user = await client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token);
      expect(user.memberNo).toBe(DEMO.admin);
      expect(logger.at('warn')).toEqual([expect.objectContaining({ obj: { event: 'call' }, msg: expect.stringContaining('listener bug') })]);
    } finally {
      await client.close();
    }
  });

  it('carries no token and no secret in any event (canaries)', async () => {
    // Budgets a busy machine cannot outlast: a timed-out call would break the run of refusals the probe counts.
    const client = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 }, retries: 0, timeoutMs: 5000, totalTimeoutMs: 10_000, circuitBreaker: { failureThreshold: 2, openMs: 60_000 } }));
    const seen = record(client);
    const secrets = new Set<string>([DEMO.clientSecret]);
    try {
      for (let i = 0; i < INVALID_TOKEN_RUN_LENGTH; i += 1) {
        const token = garbage();
        secrets.add(token);
        await rejectionOf(() => client.verifyUserToken(token));
      }
      secrets.add(await client.provider.getToken());
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: 1 });
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.add(token);
      await client.verifyUserToken(token);
      await client.verifyUserToken(token);
      secrets.add(await client.provider.getToken());
      await rejectionOf(() => client.verifyWebToken('web-token-canary-1234567890'));
      secrets.add('web-token-canary-1234567890');
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 2 });
      for (let i = 0; i < 2; i += 1) {
        const failing = emulator.login(DEMO.admin, DEMO.gameId).access_token;
        secrets.add(failing);
        await rejectionOf(() => client.verifyUserToken(failing));
      }
      expect([seen.probes.length, seen.circuits.length, seen.tokens.length]).toEqual([1, 1, 2]);
      expect(seen.calls.length).toBeGreaterThan(INVALID_TOKEN_RUN_LENGTH);
      const text = Object.values(seen).flat().map((e) => inspect(e, { depth: 5, showHidden: true }) + JSON.stringify(e)).join('\n');
      for (const secret of secrets) expect(text).not.toContain(secret);
    } finally {
      await client.close();
    }
  });
});
