import { HOURS_6_MS, DAYS_30_MS, useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, postJson, verify } from '../support/emulator-http.js';

describe('E2 POST /member/v3.0/{game_id}/token/verify', () => {
  const fx = useEmulator();
  let token: string;
  beforeAll(async () => {
    token = await apiToken(fx.url);
  });

  it('answers code 0 with member_no and guid as JSON numbers', async () => {
    const res = await verify(fx.url, token, fx.emulator.login(DEMO.admin, DEMO.gameId).access_token);
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"code":0,"message":"success","value":{"member_no":${DEMO.admin},"guid":${DEMO.adminGuid}}}`);
  });

  it('omits guid for a member without a guid for that game', async () => {
    const res = await verify(fx.url, token, fx.emulator.login(DEMO.noGuid, DEMO.gameId).access_token);
    expect(res.json).toEqual({ code: 0, message: 'success', value: { member_no: Number(DEMO.noGuid) } });
    expect(res.text).not.toContain('guid');
  });

  it('answers 46217 for a member whose device is not registered', async () => {
    const res = await verify(fx.url, token, fx.emulator.login(DEMO.unregistered, DEMO.gameId).access_token);
    expect([res.status, res.json.code]).toEqual([200, 46217]);
  });

  it('answers 40101 with HTTP 401 for a missing, non-Bearer or unknown API token', async () => {
    const user = fx.emulator.login(DEMO.admin).access_token;
    const url = `${fx.url}/member/v3.0/${DEMO.gameId}/token/verify`;
    const body = { access_token: user };
    const variants: Record<string, string>[] = [{}, { authorization: `Basic ${token}` }, { authorization: 'Bearer not-a-token' }, { authorization: 'Bearer' }];
    for (const headers of variants) {
      const res = await postJson(url, body, headers);
      expect([res.status, res.json]).toEqual([401, { code: 40101, message: expect.any(String) }]);
    }
    expect((await postJson(url, body, { authorization: `bearer   ${token}` })).json.code).toBe(0);
  });

  it('answers 41002 when game_id is not the API token\'s service_id', async () => {
    const res = await verify(fx.url, token, fx.emulator.login(DEMO.admin, DEMO.otherGameId).access_token, DEMO.otherGameId);
    expect([res.status, res.json]).toEqual([200, { code: 41002, message: 'invalid game id' }]);
  });

  it.each([
    ['no access_token', 'RAW:{}'],
    ['access_token a number', 'RAW:{"access_token":12345}'],
    ['access_token empty', 'RAW:{"access_token":""}'],
    ['a body that is not JSON', 'RAW:access_token=abc'],
    ['an empty body', 'RAW:'],
    ['an unknown user token', 'unknown-user-token'],
  ])('answers 40000 for %s', async (_name, body) => {
    const res = await verify(fx.url, token, body);
    expect([res.status, res.json]).toEqual([200, { code: 40000, message: 'bad request' }]);
  });

  it('answers 40000 for a user token issued for another game', async () => {
    const other = fx.emulator.login(DEMO.admin, DEMO.otherGameId).access_token;
    expect((await verify(fx.url, token, other)).json.code).toBe(40000);
    const otherApi = await apiToken(fx.url, { client_id: DEMO.otherClientId, client_secret: DEMO.otherClientSecret, service_id: DEMO.otherGameId });
    const res = await verify(fx.url, otherApi, other, DEMO.otherGameId);
    expect(res.json).toEqual({ code: 0, message: 'success', value: { member_no: Number(DEMO.admin), guid: 200000000398 } });
  });

  it('answers 40000 after refresh (old token) and after logout', async () => {
    const pair = fx.emulator.login(DEMO.player);
    const next = fx.emulator.refresh(pair.refresh_token);
    expect((await verify(fx.url, token, pair.access_token)).json.code).toBe(40000);
    expect((await verify(fx.url, token, next.access_token)).json.code).toBe(0);
    fx.emulator.logout(next.access_token);
    expect((await verify(fx.url, token, next.access_token)).json.code).toBe(40000);
  });

  it('does not require caller-id (it is recorded when sent)', async () => {
    const user = fx.emulator.login(DEMO.admin).access_token;
    const res = await postJson(`${fx.url}/member/v3.0/${DEMO.gameId}/token/verify`, { access_token: user }, { authorization: `Bearer ${token}` });
    expect(res.json.code).toBe(0);
    expect(fx.emulator.requests({ endpoint: 'E2' })[0]?.callerId).toBeNull();
  });

  it('answers 405 to a GET', async () => {
    expect((await call(`${fx.url}/member/v3.0/${DEMO.gameId}/token/verify`)).status).toBe(405);
  });
});

describe('E2 lifetimes on the emulator clock', () => {
  it('accepts a user token until 6 hours, then answers 40000', async () => {
    await withEmulator({ clock: 'frozen' }, async (emulator) => {
      const token = await apiToken(emulator.url);
      const user = emulator.login(DEMO.admin).access_token;
      emulator.advanceClock(HOURS_6_MS - 1);
      expect((await verify(emulator.url, token, user)).json.code).toBe(0);
      emulator.advanceClock(1);
      expect((await verify(emulator.url, token, user)).json).toEqual({ code: 40000, message: 'bad request' });
    });
  });

  it('answers 40103 with HTTP 401 for an expired API token (checked before the user token)', async () => {
    await withEmulator({}, async (emulator) => {
      const token = await apiToken(emulator.url);
      emulator.advanceClock(DAYS_30_MS);
      const res = await verify(emulator.url, token, emulator.login(DEMO.admin).access_token);
      expect([res.status, res.json]).toEqual([401, { code: 40103, message: expect.any(String) }]);
    });
  });

  it('lets a refresh token renew a login after the access token expired, until 30 days', async () => {
    await withEmulator({ clock: 'frozen' }, async (emulator) => {
      const pair = emulator.login(DEMO.admin);
      emulator.advanceClock(HOURS_6_MS * 2);
      const next = emulator.refresh(pair.refresh_token);
      const token = await apiToken(emulator.url);
      expect((await verify(emulator.url, token, next.access_token)).json.code).toBe(0);
      expect(() => emulator.refresh(pair.refresh_token)).toThrow(/refresh_token is unknown, already used/);
      emulator.advanceClock(DAYS_30_MS);
      expect(() => emulator.refresh(next.refresh_token)).toThrow(/expired/);
    });
  });
});
