import diagnosticsChannel from 'node:diagnostics_channel';
import { inspect } from 'node:util';
import { PlatformClient } from '../../lib/index.js';
import { CHANNELS } from '../../lib/diagnostics/channels.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';

type Seen = { channel: string; event: string; message: Record<string, unknown> };

/** Subscribes to every channel of the package; returns what was published and an unsubscribe. */
function listen(): { seen: Seen[]; stop: () => void } {
  const seen: Seen[] = [];
  const stops: (() => void)[] = [];
  for (const name of [CHANNELS.verify, CHANNELS.apiToken, CHANNELS.platformCall]) {
    const handlers = Object.fromEntries(['start', 'end', 'asyncStart', 'asyncEnd', 'error'].map((event) => [
      event, (message: unknown) => seen.push({ channel: name, event, message: { ...(message as object) } }),
    ])) as unknown as diagnosticsChannel.TracingChannelSubscribers<object>;
    const channel = diagnosticsChannel.tracingChannel(name);
    channel.subscribe(handlers);
    stops.push(() => channel.unsubscribe(handlers));
  }
  for (const name of [CHANNELS.call, CHANNELS.circuit, CHANNELS.probe, CHANNELS.cache, CHANNELS.apiTokenState]) {
    const handler = (message: unknown): void => void seen.push({ channel: name, event: 'publish', message: { ...(message as object) } });
    diagnosticsChannel.subscribe(name, handler);
    stops.push(() => diagnosticsChannel.unsubscribe(name, handler));
  }
  return { seen, stop: () => stops.forEach((stop) => stop()) };
}

const ended = (seen: Seen[], channel: string): Record<string, unknown>[] =>
  seen.filter((s) => s.channel === channel && s.event === 'asyncEnd').map((s) => s.message);

describe('diagnostics channels', () => {
  let emulator: Emulator;
  beforeAll(async () => {
    emulator = await startTestEmulator();
  });
  afterAll(() => emulator.close());

  it('publishes a verification, its API-token issue and each platform attempt, cached hits included', async () => {
    const { seen, stop } = listen();
    const client = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 } }));
    try {
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      await client.verifyUserToken(token);
      await client.verifyUserToken(token);
      const verifies = seen.filter((s) => s.channel === CHANNELS.verify && s.event === 'asyncEnd').map((s) => s.message);
      expect(verifies).toEqual([
        expect.objectContaining({ kind: 'E2', outcome: 'ok', cached: false, tokenFingerprint: expect.stringMatching(/^[0-9a-f]{8}$/) }),
        expect.objectContaining({ kind: 'E2', outcome: 'ok', cached: true }),
      ]);
      expect(ended(seen, CHANNELS.apiToken)).toEqual([expect.objectContaining({ reason: 'initial', outcome: 'ok', expiresInS: expect.any(Number) })]);
      const calls = ended(seen, CHANNELS.platformCall);
      expect(calls.map((c) => [c.endpoint, c.method, c.attempt, c.statusCode, c.code, c.outcome])).toEqual([
        ['E1', 'POST', 1, 200, 0, 'ok'],
        ['E2', 'POST', 1, 200, 0, 'ok'],
      ]);
      expect(calls[1]).toMatchObject({ path: `/member/v3.0/${DEMO.gameId}/token/verify`, host: new URL(emulator.url).host });
      expect(seen.filter((s) => s.channel === CHANNELS.cache).map((s) => s.message.hit)).toEqual([false, true]);
      expect(seen.filter((s) => s.channel === CHANNELS.apiTokenState).map((s) => s.message.state)).toEqual(['held']);
    } finally {
      stop();
      await client.close();
    }
  });

  it('starts each platform attempt inside its verification (the same async context)', async () => {
    const { AsyncLocalStorage } = await import('node:async_hooks');
    const store = new AsyncLocalStorage<string>();
    const verify = diagnosticsChannel.tracingChannel(CHANNELS.verify);
    verify.start.bindStore(store, () => 'inside-verify');
    const parents: (string | undefined)[] = [];
    const onStart = (): void => void parents.push(store.getStore());
    diagnosticsChannel.subscribe('tracing:' + CHANNELS.platformCall + ':start', onStart);
    // Timeouts far above any answer time: a retry on a busy machine would add an attempt.
    const client = new PlatformClient(configFor(emulator, { timeoutMs: 10_000, totalTimeoutMs: 20_000 }));
    try {
      await client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token);
      expect(parents).toEqual(['inside-verify', 'inside-verify']);
    } finally {
      verify.start.unbindStore(store);
      diagnosticsChannel.unsubscribe('tracing:' + CHANNELS.platformCall + ':start', onStart);
      await client.close();
    }
  });

  it('reports refusals, faults and retries with their codes and attempts', async () => {
    const { seen, stop } = listen();
    // Budgets a busy machine cannot outlast: a timed-out attempt would shift which answer each fault meets.
    const client = new PlatformClient(configFor(emulator, { retries: 1, retryBaseDelayMs: 1, retryMaxDelayMs: 2, timeoutMs: 5000, totalTimeoutMs: 10_000 }));
    try {
      await client.ready();
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 50000, count: 2 });
      await rejectionOf(() => client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token));
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: 1 });
      await rejectionOf(() => client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token));
      const e2 = ended(seen, CHANNELS.platformCall).filter((c) => c.endpoint === 'E2');
      expect(e2.map((c) => [c.attempt, c.code, c.outcome])).toEqual([[1, 50000, 'fault'], [2, 50000, 'fault'], [1, 40000, 'refused']]);
      expect(ended(seen, CHANNELS.verify).map((v) => [v.outcome, v.code])).toEqual([['unavailable', 50000], ['invalid_token', 40000]]);
    } finally {
      stop();
      await client.close();
    }
  });

  it('publishes the configuration refusal of E1, and ready() rejects with it', async () => {
    const { seen, stop } = listen();
    const client = new PlatformClient(configFor(emulator, { clientSecret: 'wrong-secret-canary' }));
    try {
      const error = await rejectionOf(() => client.ready());
      expect(error).toMatchObject({ kind: 'configuration', status: 500 });
      expect(ended(seen, CHANNELS.apiToken)).toEqual([expect.objectContaining({ reason: 'initial', outcome: 'refused', code: expect.any(Number) })]);
      expect(seen.filter((s) => s.channel === CHANNELS.apiTokenState).map((s) => s.message.state)).toEqual(['refused']);
      expect(client.health()).toMatchObject({ apiToken: { held: false, refused: true }, circuit: 'closed', inFlight: 0, queued: 0 });
    } finally {
      stop();
      await client.close();
    }
  });

  it('carries no token and no secret in any payload (canaries)', async () => {
    const { seen, stop } = listen();
    const secrets = new Set<string>([DEMO.clientSecret]);
    const client = new PlatformClient(configFor(emulator, { cache: { ttlMs: 60_000 }, retries: 0 }));
    try {
      for (let i = 0; i < 3; i += 1) {
        const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
        secrets.add(token);
        await client.verifyUserToken(token);
        await client.verifyUserToken(token);
      }
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40101, count: 1 });
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.add(token);
      secrets.add(await client.provider.getToken());
      await client.verifyUserToken(token);
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: 1 });
      const refused = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.add(refused);
      await rejectionOf(() => client.verifyUserToken(refused));
      await rejectionOf(() => client.verifyWebToken('web-token-canary-1234567890'));
      secrets.add('web-token-canary-1234567890');
      secrets.add(await client.provider.getToken());
      const health = inspect(client.health(), { depth: 5 });
      expect(seen.length).toBeGreaterThan(10);
      const text = seen.map((s) => inspect(s.message, { depth: 5 }) + JSON.stringify(s.message)).join('\n') + health;
      for (const secret of secrets) expect(text).not.toContain(secret);
    } finally {
      stop();
      await client.close();
    }
  });
});
