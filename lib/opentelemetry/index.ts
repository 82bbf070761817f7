import '../runtime-check.js'; // first: an unsupported Node is refused before any other module runs
import { AsyncLocalStorage } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { context as otelContext, metrics, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { Context, MeterProvider, Span, TracerProvider } from '@opentelemetry/api';
import { CHANNELS } from '../diagnostics/channels.js';
import type { ApiTokenMessage, PlatformCallMessage, VerifyMessage } from '../diagnostics/channels.js';

/** Options of {@link instrumentGamePlatform}. */
export interface GamePlatformInstrumentationOptions {
  /** Default: the global tracer provider (`trace.getTracerProvider()`). */
  tracerProvider?: TracerProvider;
  /** Default: the global meter provider. */
  meterProvider?: MeterProvider;
}

const SCOPE = 'passport-game-platform';

interface Traced {
  readonly name: string;
  readonly channel: string;
  readonly kind: SpanKind;
  readonly open: (message: never) => Record<string, string | number>;
  readonly close: (span: Span, message: never) => void;
}

function closeVerify(span: Span, message: VerifyMessage): void {
  span.setAttribute('game_platform.outcome', message.outcome ?? 'unknown');
  if (message.cached !== undefined) span.setAttribute('game_platform.cached', message.cached);
  if (message.code !== undefined) span.setAttribute('game_platform.code', message.code);
  // A refused player token is an answer, not a fault of this service.
  if (message.outcome === 'unavailable' || message.outcome === 'server_error') span.setStatus({ code: SpanStatusCode.ERROR, message: message.outcome });
}

function closeApiToken(span: Span, message: ApiTokenMessage): void {
  span.setAttribute('game_platform.outcome', message.outcome ?? 'unknown');
  if (message.apiTokenFingerprint !== undefined) span.setAttribute('game_platform.api_token.fingerprint', message.apiTokenFingerprint);
  if (message.expiresInS !== undefined) span.setAttribute('game_platform.api_token.expires_in_s', message.expiresInS);
  if (message.code !== undefined) span.setAttribute('game_platform.code', message.code);
  if (message.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: message.outcome ?? 'failed' });
}

function closeCall(span: Span, message: PlatformCallMessage): void {
  if (message.statusCode !== undefined) span.setAttribute('http.response.status_code', message.statusCode);
  if (message.code !== undefined) span.setAttribute('game_platform.code', message.code);
  span.setAttribute('game_platform.outcome', message.outcome ?? 'unknown');
  // HTTP client conventions: error.type is the status code for a 4xx/5xx, else the failure class.
  const failed = message.outcome === 'fault' || message.outcome === 'timeout' || message.outcome === 'aborted';
  if (failed || (message.statusCode ?? 0) >= 400) {
    span.setAttribute('error.type', message.statusCode !== undefined && message.statusCode >= 400 ? String(message.statusCode) : message.outcome ?? '_OTHER');
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
}

function openCall(message: PlatformCallMessage): Record<string, string | number> {
  const [address, port] = message.host.split(':');
  return {
    'http.request.method': message.method,
    'server.address': address ?? message.host,
    ...(port === undefined ? {} : { 'server.port': Number(port) }),
    'url.path': message.path,
    ...(message.attempt > 1 ? { 'http.request.resend_count': message.attempt - 1 } : {}),
    'game_platform.endpoint': message.endpoint,
  };
}

const TRACED: readonly Traced[] = [
  {
    name: 'game_platform.verify', channel: CHANNELS.verify, kind: SpanKind.INTERNAL,
    open: (m: VerifyMessage) => ({ 'game_platform.token_kind': m.kind, 'game_platform.token.fingerprint': m.tokenFingerprint }),
    close: closeVerify,
  },
  { name: 'game_platform.api_token', channel: CHANNELS.apiToken, kind: SpanKind.INTERNAL, open: (m: ApiTokenMessage) => ({ 'game_platform.reason': m.reason }), close: closeApiToken },
  { name: 'platform-call', channel: CHANNELS.platformCall, kind: SpanKind.CLIENT, open: openCall, close: closeCall },
];

/**
 * Turns the package's diagnostics channels into OpenTelemetry spans and
 * metrics, with `@opentelemetry/api` only (bring your own SDK and exporter).
 * Spans: `game_platform.verify` (a user-token verification, cache hits
 * included), `game_platform.api_token` (E1 issue or renewal) and one HTTP
 * client span per platform attempt (`POST`, `GET`; HTTP semantic-convention
 * attributes), each the child of the operation that caused it, under the
 * active context (your HTTP server span). Metrics: `http.client.request.duration`
 * (s, per attempt) and `game_platform.verifications` (by outcome).
 * Attributes carry fingerprints, never a token. Returns a function that
 * unsubscribes.
 *
 * @example
 * ```ts
 * import { instrumentGamePlatform } from 'passport-game-platform/opentelemetry';
 * const stop = instrumentGamePlatform(); // after your SDK has registered its providers
 * ```
 */
export function instrumentGamePlatform(options: GamePlatformInstrumentationOptions = {}): () => void {
  const tracer = (options.tracerProvider ?? trace.getTracerProvider()).getTracer(SCOPE);
  const meter = (options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE);
  const duration = meter.createHistogram('http.client.request.duration', { unit: 's', description: 'Duration of each HTTP attempt to the game platform' });
  const verifications = meter.createCounter('game_platform.verifications', { description: 'User-token verifications by outcome' });
  // Our own store: the parent of a platform call is the verification it serves, whatever the context manager.
  const current = new AsyncLocalStorage<Context>();
  const spans = new WeakMap<object, Span>();
  const stops: (() => void)[] = [];
  for (const traced of TRACED) {
    const channel = diagnosticsChannel.tracingChannel<object, object>(traced.channel);
    channel.start.bindStore(current, (message) => {
      const parent = current.getStore() ?? otelContext.active();
      const span = tracer.startSpan(
        traced.kind === SpanKind.CLIENT ? (message as PlatformCallMessage).method : traced.name,
        { kind: traced.kind, attributes: traced.open(message as never) },
        parent,
      );
      spans.set(message, span);
      return trace.setSpan(parent, span);
    });
    const subscribers = {
      start: () => {},
      end: () => {},
      asyncStart: () => {},
      error: () => {},
      asyncEnd: (message: object) => {
        const span = spans.get(message);
        if (span === undefined) return;
        spans.delete(message);
        traced.close(span, message as never);
        span.end();
        if (traced.channel === CHANNELS.platformCall) {
          const call = message as PlatformCallMessage;
          duration.record((call.durationMs ?? 0) / 1000, {
            'http.request.method': call.method, 'server.address': call.host.split(':')[0] ?? call.host, 'game_platform.endpoint': call.endpoint,
            ...(call.statusCode === undefined ? {} : { 'http.response.status_code': call.statusCode }),
          });
        } else if (traced.channel === CHANNELS.verify) {
          const verify = message as VerifyMessage;
          verifications.add(1, { 'game_platform.outcome': verify.outcome ?? 'unknown', 'game_platform.cached': verify.cached === true });
        }
      },
    };
    channel.subscribe(subscribers);
    stops.push(() => {
      channel.unsubscribe(subscribers);
      channel.start.unbindStore(current);
    });
  }
  return () => stops.forEach((stop) => stop());
}
