import { inspect } from 'node:util';
import { SpanKind } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { PlatformClient } from '../../lib/index.js';
import { instrumentGamePlatform } from '../../lib/opentelemetry/index.js';
import type { Emulator } from '../../lib/emulator/index.js';
import { DEMO, configFor, rejectionOf, startTestEmulator } from '../support/client-harness.js';

describe('OpenTelemetry recipe', () => {
  let emulator: Emulator;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  let stop: () => void;
  beforeAll(async () => {
    emulator = await startTestEmulator();
    stop = instrumentGamePlatform({ tracerProvider: provider });
  });
  afterAll(async () => {
    stop();
    await emulator.close();
  });
  beforeEach(() => exporter.reset());

  const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

  it('makes a verification span with its API-token issue and platform calls as children, HTTP client attributes', async () => {
    const client = new PlatformClient(configFor(emulator));
    try {
      await client.verifyUserToken(emulator.login(DEMO.admin, DEMO.gameId).access_token);
    } finally {
      await client.close();
    }
    const spans = exporter.getFinishedSpans();
    const verify = spans.find((s) => s.name === 'game_platform.verify')!;
    const issue = spans.find((s) => s.name === 'game_platform.api_token')!;
    const calls = spans.filter((s) => s.kind === SpanKind.CLIENT);
    expect(spans).toHaveLength(4);
    expect(verify.attributes).toMatchObject({ 'game_platform.outcome': 'ok', 'game_platform.cached': false, 'game_platform.token_kind': 'E2' });
    expect(parentOf(verify)).toBeUndefined();
    expect(parentOf(issue)).toBe(verify.spanContext().spanId);
    const e1 = calls.find((s) => s.attributes['game_platform.endpoint'] === 'E1')!;
    const e2 = calls.find((s) => s.attributes['game_platform.endpoint'] === 'E2')!;
    expect(parentOf(e1)).toBe(issue.spanContext().spanId);
    expect(parentOf(e2)).toBe(verify.spanContext().spanId);
    expect(e2.name).toBe('POST');
    expect(e2.attributes).toEqual({
      'http.request.method': 'POST',
      'server.address': '127.0.0.1',
      'server.port': Number(new URL(emulator.url).port),
      'url.path': `/member/v3.0/${DEMO.gameId}/token/verify`,
      'http.response.status_code': 200,
      'game_platform.endpoint': 'E2',
      'game_platform.code': 0,
      'game_platform.outcome': 'ok',
    });
    expect(verify.spanContext().traceId).toBe(e2.spanContext().traceId);
  });

  it('marks retries and faults, and puts no token in any attribute', async () => {
    const client = new PlatformClient(configFor(emulator, { retries: 1 }));
    const secrets: string[] = [DEMO.clientSecret];
    try {
      secrets.push(await client.provider.getToken());
      emulator.injectFault({ endpoint: 'E2', type: 'http5xx', count: 2 });
      const token = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.push(token);
      await rejectionOf(() => client.verifyUserToken(token));
      const refused = emulator.login(DEMO.admin, DEMO.gameId).access_token;
      secrets.push(refused);
      emulator.injectFault({ endpoint: 'E2', type: 'code', code: 40000, count: 1 });
      await rejectionOf(() => client.verifyUserToken(refused));
    } finally {
      await client.close();
    }
    const spans = exporter.getFinishedSpans();
    const calls = spans.filter((s) => s.kind === SpanKind.CLIENT && s.attributes['game_platform.endpoint'] === 'E2');
    expect(calls.map((s) => [s.attributes['http.request.resend_count'], s.attributes['error.type'], s.status.code])).toEqual([
      [undefined, '502', 2], [1, '502', 2], [undefined, undefined, 0],
    ]);
    const verifies = spans.filter((s) => s.name === 'game_platform.verify');
    expect(verifies.map((s) => [s.attributes['game_platform.outcome'], s.status.code])).toEqual([['unavailable', 2], ['invalid_token', 0]]);
    const text = spans.map((s) => inspect({ name: s.name, attributes: s.attributes, status: s.status, events: s.events }, { depth: 6 })).join('\n');
    for (const secret of secrets) expect(text).not.toContain(secret);
  });
});
