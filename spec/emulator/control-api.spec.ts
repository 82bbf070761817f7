import { HOURS_6_MS, useEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, postJson, verify } from '../support/emulator-http.js';

describe('test-control API over HTTP (/_emulator/*)', () => {
  const fx = useEmulator();
  const ctl = (path: string, body: unknown): ReturnType<typeof postJson> => postJson(`${fx.url}/_emulator/${path}`, body);

  it('logs a member in and the access token verifies with E2', async () => {
    const res = await ctl('login', { member_no: DEMO.admin, game_id: DEMO.gameId });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ access_token: expect.any(String), refresh_token: expect.any(String), expires_in: 21600 });
    expect(res.json.access_token).not.toBe(res.json.refresh_token);
    expect((await verify(fx.url, await apiToken(fx.url), res.json.access_token)).json.code).toBe(0);
  });

  it('accepts member_no as an exact JSON number above 2^53 and defaults game_id to the first client\'s', async () => {
    const res = await ctl('login', `{"member_no":${DEMO.big}}`);
    const check = await verify(fx.url, await apiToken(fx.url), res.json.access_token);
    expect(check.text).toContain(`"member_no":${DEMO.big}`);
  });

  it('refreshes: new pair, old access token gives 40000, old refresh token is consumed', async () => {
    const token = await apiToken(fx.url);
    const first = (await ctl('login', { member_no: DEMO.player })).json;
    const second = await ctl('refresh', { refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect((await verify(fx.url, token, first.access_token)).json.code).toBe(40000);
    expect((await verify(fx.url, token, second.json.access_token)).json.code).toBe(0);
    const again = await ctl('refresh', { refresh_token: first.refresh_token });
    expect([again.status, again.json.error]).toEqual([400, expect.stringMatching(/refresh_token/)]);
  });

  it('logs out: the token gives 40000 and its refresh token no longer works', async () => {
    const token = await apiToken(fx.url);
    const pair = (await ctl('login', { member_no: DEMO.player })).json;
    expect((await ctl('logout', { access_token: pair.access_token })).json).toEqual({ ok: true });
    expect((await verify(fx.url, token, pair.access_token)).json.code).toBe(40000);
    expect((await ctl('refresh', { refresh_token: pair.refresh_token })).status).toBe(400);
  });

  it('moves the clock and reports it; a user token then expires', async () => {
    const token = await apiToken(fx.url);
    const pair = (await ctl('login', { member_no: DEMO.admin })).json;
    const before = fx.emulator.now();
    const res = await ctl('clock', { advance_ms: HOURS_6_MS });
    expect(res.json.now).toBeGreaterThanOrEqual(before + HOURS_6_MS);
    expect((await call(`${fx.url}/_emulator/clock`)).json.now).toBeGreaterThanOrEqual(res.json.now);
    expect((await verify(fx.url, token, pair.access_token)).json.code).toBe(40000);
  });

  it('mints a web token', async () => {
    const res = await ctl('web-token', { member_no: DEMO.admin });
    expect(res.json).toEqual({ web_token: expect.stringMatching(/^[\w-]+\.[\w-]+\.[\w-]+$/), expires_in: 21600, cookie_name: 'SUAT' });
  });

  it('injects, lists and clears faults; -1 means until cleared', async () => {
    const injected = await ctl('faults', { faults: [{ type: 'code', code: 50000, endpoint: 'E3' }, { type: 'drop', count: -1 }] });
    expect(injected.json.pending).toEqual([
      { type: 'code', code: 50000, endpoint: 'E3', count: 1 },
      { type: 'drop', endpoint: 'any', count: -1 },
    ]);
    expect((await call(`${fx.url}/_emulator/faults`)).json.pending).toHaveLength(2);
    expect((await call(`${fx.url}/_emulator/faults`, { method: 'DELETE' })).json).toEqual({ cleared: 2 });
    expect(fx.emulator.pendingFaults()).toEqual([]);
  });

  it('serves and clears the request log, filtered by endpoint', async () => {
    await apiToken(fx.url);
    const log = await call(`${fx.url}/_emulator/requests?endpoint=E1`);
    expect(log.json.requests).toEqual([expect.objectContaining({ endpoint: 'E1', status: 200, code: 0 })]);
    expect((await call(`${fx.url}/_emulator/requests?endpoint=nope`)).status).toBe(400);
    await call(`${fx.url}/_emulator/requests`, { method: 'DELETE' });
    expect(fx.emulator.requests({ endpoint: 'E1' })).toEqual([]);
  });

  it('reports health', async () => {
    expect((await call(`${fx.url}/_emulator/health`)).json).toMatchObject({ ok: true, environment: 'live', identifiers: 'number', errorStatus: 'platform' });
  });

  it.each([
    ['login', '{"member_no":"abc"}', /member_no must be a string of digits/],
    ['login', '{"member_no":"1"}', /not a seeded member/],
    ['login', `{"member_no":"${DEMO.admin}","game_id":"nope"}`, /game_id "nope" is not the service_id/],
    ['login', `{"member_no":"${DEMO.admin}","game_id":5}`, /game_id must be a non-empty string/],
    ['login', 'not json', /body must be a JSON object/],
    ['login', '[]', /body must be a JSON object/],
    ['refresh', '{}', /refresh_token must be a non-empty string/],
    ['logout', '{"access_token":"unknown"}', /not a current user token/],
    ['clock', '{"advance_ms":-5}', /advance_ms must be a finite number >= 0/],
    ['clock', '{"advance_ms":"soon"}', /advance_ms/],
    ['faults', '{"type":"explode"}', /fault: type must be one of/],
    ['faults', '{"type":"latency"}', /latencyMs must be an integer/],
    ['faults', '{"type":"drop","count":0}', /count must be a positive integer, -1 or Infinity/],
    ['faults', '{"type":"drop","endpoint":"control"}', /endpoint must be one of/],
    ['faults', '{"type":"http5xx","status":200}', /status must be from 500 to 599/],
    ['web-token', '{}', /member_no must be a string of digits/],
  ])('answers 400 with a message to a bad %s body: %s', async (path, body, message) => {
    const res = await ctl(path, body);
    expect(res.status).toBe(400);
    expect(res.json.error).toMatch(message);
  });

  it('answers 400 to a body over 64 KiB and 404 to an unknown control route', async () => {
    expect((await ctl('login', `{"member_no":"${'1'.repeat(70_000)}"}`)).status).toBe(400);
    const res = await ctl('nothing', {});
    expect([res.status, res.json.error]).toEqual([404, 'no control route POST /_emulator/nothing']);
  });

  it('throws the same errors in-process', () => {
    expect(() => fx.emulator.login('1')).toThrow('member_no 1 is not a seeded member');
    expect(() => fx.emulator.advanceClock(Number.NaN)).toThrow('advance_ms must be a finite number >= 0');
    expect(() => fx.emulator.injectFault({ type: 'latency', latencyMs: 2 ** 31 })).toThrow(/latencyMs/);
    expect(() => fx.emulator.issueWebToken('x')).toThrow(/member_no/);
  });
});

describe('unknown routes', () => {
  const fx = useEmulator();

  it('answers 404 JSON and logs the request as unknown', async () => {
    const res = await call(`${fx.url}/auth/v4/server_token`, { method: 'POST' });
    expect([res.status, res.json]).toEqual([404, { message: 'not found' }]);
    expect(fx.emulator.requests()).toEqual([expect.objectContaining({ endpoint: 'unknown', status: 404 })]);
  });
});
