import { inspect } from 'node:util';
import { fingerprint } from '../../lib/index.js';
import { DEMO } from '../support/app-harness.js';
import { CanaryCapture } from './support/canary-capture.js';
import { CANARY, apiTokenOf, canaryApp, closedPort, runCanaryScenarios } from './support/canary-scenarios.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// The whole set of requests and faults with canary values for
// the client secret, the API token and the user tokens; every log line,
// console call, stdout/stderr write, response (status line, headers, body),
// error that reached the error handler, and event is searched for them.

// express.json()'s parse error keeps the raw request body in `err.body`, so a
// token a client puts in a malformed JSON body (bad-input row 19) would be in
// the error passed to next(). The example app drops it right after its body
// parsers; any parser body that still reaches the handler is counted here.
function parserBody(error: unknown): string | undefined {
  const e = error as { type?: unknown; body?: unknown } | null;
  return e !== null && typeof e === 'object' && e.type === 'entity.parse.failed' && typeof e.body === 'string' ? e.body : undefined;
}

function collect(cap: CanaryCapture, app: ReliabilityApp): string[] {
  for (const line of [...app.logger.lines, ...app.clientLog.lines]) {
    cap.add(line.msg);
    cap.add(line.obj);
  }
  for (const event of [...app.events.calls, ...app.events.circuits, ...app.events.probes, ...app.events.tokens]) cap.add(event);
  const parserBodies: string[] = [];
  for (const error of app.handled) {
    const body = parserBody(error);
    if (body === undefined) {
      cap.add(error);
      continue;
    }
    parserBodies.push(body);
    const { stack, message } = error as Error;
    cap.add({ ...(error as object), body: '[set aside]', stack, message });
  }
  cap.add(inspect(app.client, { depth: 6, showHidden: true }));
  cap.add(inspect(app.client.provider, { depth: 6, showHidden: true }));
  cap.add(JSON.stringify(app.client.config));
  return parserBodies;
}

describe.each([['unset', undefined], ['production', 'production']])('secret canaries with NODE_ENV %s', (_name, env) => {
  const saved = process.env.NODE_ENV;
  const cap = new CanaryCapture();
  const apps: ReliabilityApp[] = [];
  beforeAll(() => {
    if (env === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = env;
    cap.canary(CANARY.secret);
    cap.canary(CANARY.wrongSecret);
    cap.start();
  });
  afterAll(async () => {
    cap.stop();
    for (const app of apps) await app.close();
    process.env.NODE_ENV = saved;
  });

  it('shows no canary anywhere across every request shape and platform fault', async () => {
    const app = await canaryApp(cap);
    apps.push(app);
    expect(app.app.get('env')).toBe(env ?? 'development');
    const apiToken = cap.canary(await apiTokenOf(app));
    await runCanaryScenarios(app, cap);
    expect(cap.canary(await apiTokenOf(app))).toBe(apiToken);
    expect(app.events.tokens.map((e) => e.fingerprint)).toContain(fingerprint(apiToken));

    // A cold app whose E1 fails, a misconfigured one (wrong secret), one whose platform refuses connections.
    const cold = await canaryApp(cap);
    const wrong = await canaryApp(cap, { clientSecret: CANARY.wrongSecret });
    const refused = await canaryApp(cap, { baseUrl: `http://127.0.0.1:${await closedPort()}` });
    apps.push(cold, wrong, refused);
    cold.emulator.injectFault({ endpoint: 'E1', type: 'http5xx', count: 2 });
    cold.emulator.injectFault({ endpoint: 'E1', type: 'drop', count: 4 });
    for (const other of [cold, wrong, refused]) {
      for (let i = 0; i < 4; i += 1) await other.bearer(other.token(DEMO.player));
    }
    expect((await wrong.bearer(wrong.token(DEMO.player))).status).toBe(500);
    expect((await refused.bearer(refused.token(DEMO.player))).status).toBe(503);
    cap.canary(await apiTokenOf(cold));

    const parserBodies = apps.flatMap((a) => collect(cap, a));
    expect(parserBodies.filter((body) => [...cap.canaries].some((c) => body.includes(c)))).toEqual([]);
    expect(cap.canaries.size).toBeGreaterThan(120);
    expect(cap.texts.length).toBeGreaterThan(500);
    expect(app.handled.length).toBeGreaterThan(60);
    expect(cap.hits()).toEqual([]);
    expect(cap.unhandledRejections).toBe(0);
  });

  it('would notice a canary (the capture works)', () => {
    const control = new CanaryCapture();
    control.canary(CANARY.secret);
    control.start();
    try {
      console.error({ leaked: `x${CANARY.secret}x` });
    } finally {
      control.stop();
    }
    expect(control.hits()).toEqual(['CANARY-S...']);
  });
});
