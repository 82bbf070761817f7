import { inspect } from 'node:util';
import type { FaultSpec } from '../../lib/emulator/index.js';
import { PlatformError } from '../../lib/index.js';
import { DEMO } from '../support/app-harness.js';
import { CanaryCapture } from './support/canary-capture.js';
import { CANARY, canaryApp, closedPort } from './support/canary-scenarios.js';
import { headerOf, jsonOf } from '../support/raw-http.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// Failures that make an HTTP client throw (connection refused, timeout, an
// HTML 5xx: a client's own error holds the request, hence its secrets, and the
// platform's status) reach next() only as our PlatformError, with
// no config, request, response or cause, and are answered 503 by us (never
// the platform's status, never a stack trace), whatever NODE_ENV.

const OWN_FIELDS = ['name', 'kind', 'code', 'status', 'action', 'title', 'retryAfterSeconds', 'description', 'stack', 'message'];

describe.each([['unset', undefined], ['production', 'production']])('transport failures with NODE_ENV %s', (_name, env) => {
  const saved = process.env.NODE_ENV;
  const cap = new CanaryCapture();
  let app: ReliabilityApp;
  let refused: ReliabilityApp;
  beforeAll(async () => {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
    app = await canaryApp(cap, { retries: 0 });
    refused = await canaryApp(cap, { baseUrl: `http://127.0.0.1:${await closedPort()}`, retries: 0 });
  });
  afterAll(async () => {
    await app.close();
    await refused.close();
    process.env.NODE_ENV = saved;
  });

  it.each<[string, FaultSpec | 'refused', string]>([
    ['connection refused', 'refused', 'could not be reached'],
    ['a timeout', { endpoint: 'E2', type: 'hang', count: -1 }, 'did not answer in time'],
    ['an HTML 502', { endpoint: 'E2', type: 'http5xx', status: 502, count: -1 }, 'HTTP 502'],
    ['code 50000 sent with HTTP 401', { endpoint: 'E2', type: 'code', code: 50000, status: 401, count: -1 }, '50000'],
  ])('%s reaches next() as a PlatformError without transport internals', async (_case, fault, words) => {
    const target = fault === 'refused' ? refused : app;
    if (fault !== 'refused') {
      await app.bearer(app.token(DEMO.player)); // the API token is held: the fault hits E2
      app.emulator.injectFault(fault);
    }
    const before = target.handled.length;
    const res = await target.bearer(target.token(DEMO.player));
    app.emulator.clearFaults();
    expect(res.status).toBe(503);
    expect(headerOf(res, 'www-authenticate')).toBeUndefined();
    expect(jsonOf(res)).toMatchObject({ status: 503, action: 'retry_later' });
    expect(res.body).not.toMatch(/at .*\.(js|ts):\d+|ClientRequest|TransportError/);
    const [error] = target.handled.slice(before);
    expect(error).toBeInstanceOf(PlatformError);
    const e = error as PlatformError;
    expect([e.status, e.message]).toEqual([503, expect.stringContaining(words)]);
    for (const key of Object.getOwnPropertyNames(e)) expect(OWN_FIELDS).toContain(key);
    expect('cause' in e || 'config' in e || 'request' in e || 'response' in e).toBe(false);
    const shown = [inspect(e, { showHidden: true, depth: 10 }), JSON.stringify(e), e.stack ?? ''].join('\n');
    expect(shown).not.toMatch(/Authorization|client_secret|_header|ClientRequest|Bearer /);
    expect(shown).not.toContain(CANARY.secret);
  });
});
