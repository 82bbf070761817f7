import { DEMO } from '../support/app-harness.js';
import { BAD_INPUT_ROWS } from './support/bad-input-rows.js';
import type { Answer } from './support/bad-input-rows.js';
import { headerOf, jsonOf } from '../support/raw-http.js';
import type { RawReply } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// The bad-input rows (support/bad-input-rows.ts), every one, through the example
// app over a real socket, written byte for byte.

const BARE = 'Bearer realm="game-platform"';
const STACK = /at .*\.(js|ts):\d+|SyntaxError|node_modules/;

function expectProblem(res: RawReply, status: number, action: string): Record<string, unknown> {
  expect(headerOf(res, 'content-type')).toMatch(/^application\/problem\+json/);
  const body = jsonOf(res);
  expect(body).toMatchObject({ status, action, title: expect.any(String) });
  expect(res.body).not.toMatch(STACK);
  return body as Record<string, unknown>;
}

function expectAnswer(res: RawReply, answer: Answer): void {
  const challenge = headerOf(res, 'www-authenticate');
  switch (answer) {
    case 'bare':
      expect([res.status, challenge]).toEqual([401, BARE]);
      expect(expectProblem(res, 401, 'login').code).toBeUndefined();
      return;
    case 'IR':
      expect(res.status).toBe(400);
      expect(challenge).toMatch(/^Bearer realm="game-platform", error="invalid_request"/);
      expectProblem(res, 400, 'login');
      return;
    case 'IT':
    case 'IT40000':
      expect(res.status).toBe(401);
      expect(challenge).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
      expect(expectProblem(res, 401, 'relogin').code).toBe(answer === 'IT40000' ? 40000 : undefined);
      return;
    case 'verified':
      expect([res.status, jsonOf(res)]).toEqual([200, { member_no: DEMO.player, guid: DEMO.playerGuid }]);
      return;
    case 'node400':
    case 'node431':
      expect(res.status).toBe(answer === 'node400' ? 400 : 431);
      expect(challenge).toBeUndefined();
      return;
    case 'body400':
    case 'body413':
      expect(challenge).toBeUndefined();
      expectProblem(res, answer === 'body400' ? 400 : 413, 'none');
      return;
    case 'preflight':
      expect(res.status).toBeLessThan(300);
      expect(challenge).toBeUndefined();
      return;
  }
}

describe('bad inputs through the example app, over a real socket', () => {
  let app: ReliabilityApp;
  beforeAll(async () => {
    app = await startReliabilityApp();
  });
  afterAll(() => app.close());
  beforeEach(() => app.emulator.clearRequests());

  it.each(BAD_INPUT_ROWS.map((r) => [r.row, r.name, r] as const))('row %i: %s', async (_row, _name, r) => {
    const res = await app.send(r.request(app.token(DEMO.player)));
    expectAnswer(res, r.answer);
    expect(app.count('E2')).toBe(r.e2);
    expect(app.count('E1') + app.count('E3')).toBeLessThanOrEqual(1);
    // The server lives on and still answers a good request.
    if (r.answer.startsWith('node')) expectAnswer(await app.bearer(app.token(DEMO.player)), 'verified');
  });

  it('row 18: a JSON body access_token beside a header token never reaches verify', async () => {
    const other = app.token(DEMO.admin);
    const res = await app.send({ lines: [`Authorization: Bearer ${app.token(DEMO.player)}`, 'Content-Type: application/json'], body: JSON.stringify({ access_token: other }) });
    expectAnswer(res, 'verified');
    expect(app.count('E2')).toBe(1);
  });

  it('row 20: a path-like token never lands in a URL path', async () => {
    await app.send({ lines: ['Authorization: Bearer ../../admin'] });
    await app.send({ lines: ['Authorization: Bearer ../../../_emulator/clock'] });
    const paths = app.emulator.requests().map((entry) => entry.path);
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/(member\/v3\.0\/demo-game(\/token\/verify)?|auth\/v5\/server_token)$/);
  });

  it('counts the inputs tried', () => {
    expect(new Set(BAD_INPUT_ROWS.map((r) => r.row)).size).toBe(21);
    expect(BAD_INPUT_ROWS.length).toBeGreaterThanOrEqual(50);
  });
});
