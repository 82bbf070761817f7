import { DAYS_30_MS, useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, lookup } from '../support/emulator-http.js';

describe('E3 GET /member/v3.0/{game_id}?search_type=&value=', () => {
  const fx = useEmulator();
  let token: string;
  beforeAll(async () => {
    token = await apiToken(fx.url);
  });

  it.each(['member_no', 'MEMBER_NO', 'Member_No'])('finds a member by search_type=%s', async (type) => {
    const res = await lookup(fx.url, token, `search_type=${type}&value=${DEMO.admin}`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(`{"code":0,"message":"success","value":{"member_no":${DEMO.admin},"guid":${DEMO.adminGuid}}}`);
  });

  it.each(['guid', 'GUID'])('finds a member by search_type=%s on that game', async (type) => {
    const res = await lookup(fx.url, token, `search_type=${type}&value=${DEMO.playerGuid}`);
    expect(res.json).toEqual({ code: 0, message: 'success', value: { member_no: Number(DEMO.player), guid: Number(DEMO.playerGuid) } });
  });

  it('omits guid for a member who has not accepted the game\'s terms', async () => {
    const res = await lookup(fx.url, token, `search_type=member_no&value=${DEMO.noGuid}`);
    expect(res.json).toEqual({ code: 0, message: 'success', value: { member_no: Number(DEMO.noGuid) } });
  });

  it('answers HTTP 200, code 0 and no value for a member that does not exist', async () => {
    for (const q of ['search_type=member_no&value=123', 'search_type=guid&value=200000000398']) {
      const res = await lookup(fx.url, token, q);
      expect([res.status, res.json]).toEqual([200, { code: 0, message: 'success' }]);
    }
  });

  it.each([
    'value=1',
    'search_type=member_no',
    'search_type=nickname&value=1',
    'search_type=member_no&value=abc',
    'search_type=member_no&value=-1',
    'search_type=member_no&value=',
    'search_type=member_no&value=1&value=2',
    'search_type=member_no&search_type=guid&value=1',
  ])('answers HTTP 200 with 40000 "bad request" for ?%s', async (q) => {
    const res = await lookup(fx.url, token, q);
    expect([res.status, res.json]).toEqual([200, { code: 40000, message: 'bad request' }]);
  });

  it('answers HTTP 200 with 41002 "invalid game id" for another game', async () => {
    const res = await lookup(fx.url, token, `search_type=member_no&value=${DEMO.admin}`, DEMO.otherGameId);
    expect([res.status, res.json]).toEqual([200, { code: 41002, message: 'invalid game id' }]);
  });

  it('answers HTTP 401 with 40101 for a missing or unknown API token', async () => {
    for (const t of [null, 'nope']) {
      const res = await lookup(fx.url, t, `search_type=member_no&value=${DEMO.admin}`);
      expect([res.status, res.json.code]).toEqual([401, 40101]);
    }
  });

  it('answers 405 to a POST', async () => {
    expect((await call(`${fx.url}/member/v3.0/${DEMO.gameId}?search_type=guid&value=1`, { method: 'POST' })).status).toBe(405);
  });
});

describe('E3 with an expired API token', () => {
  it("answers HTTP 401 with 40101 (E3's table has no 40103)", async () => {
    await withEmulator({}, async (emulator) => {
      const token = await apiToken(emulator.url);
      emulator.advanceClock(DAYS_30_MS + 1);
      const res = await lookup(emulator.url, token, `search_type=member_no&value=${DEMO.admin}`);
      expect([res.status, res.json]).toEqual([401, { code: 40101, message: expect.any(String) }]);
    });
  });
});
