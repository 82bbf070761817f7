import { parse, isLosslessNumber } from 'lossless-json';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, lookup, verify } from '../support/emulator-http.js';

describe.each([
  ['number', `"member_no":${DEMO.big},"guid":${DEMO.bigGuid}`],
  ['string', `"member_no":"${DEMO.big}","guid":"${DEMO.bigGuid}"`],
] as const)('identifiers: %s', (mode, expected) => {
  const fx = useEmulator({ identifiers: mode });
  let token: string;
  beforeAll(async () => {
    token = await apiToken(fx.url);
  });

  it('writes member_no and guid above 2^53 exactly in E2', async () => {
    const res = await verify(fx.url, token, fx.emulator.login(DEMO.big).access_token);
    expect(res.text).toBe(`{"code":0,"message":"success","value":{${expected}}}`);
  });

  it('writes them exactly in E3, whether searched by member_no or by guid', async () => {
    for (const q of [`search_type=member_no&value=${DEMO.big}`, `search_type=guid&value=${DEMO.bigGuid}`]) {
      expect((await lookup(fx.url, token, q)).text).toContain(`"value":{${expected}}`);
    }
  });

  it('writes them exactly in the web token route', async () => {
    const web = fx.emulator.issueWebToken(DEMO.big);
    const res = await call(`${fx.url}/member/v3.0/${DEMO.gameId}`, { headers: { authorization: `Bearer ${web}` } });
    expect(res.text).toContain(`"value":{${expected}}`);
  });

  it('keeps the code a JSON number', async () => {
    const res = await lookup(fx.url, token, `search_type=member_no&value=${DEMO.admin}`);
    expect(res.text.startsWith('{"code":0,')).toBe(true);
  });
});

describe('identifiers: number (default), read by a lossless parser', () => {
  const fx = useEmulator();

  it('differs from what JSON.parse would keep, proving the digits are not rounded', async () => {
    const token = await apiToken(fx.url);
    const res = await lookup(fx.url, token, `search_type=member_no&value=${DEMO.big}`);
    const body = parse(res.text) as { value: { member_no: unknown } };
    expect(isLosslessNumber(body.value.member_no) && body.value.member_no.value).toBe(DEMO.big);
    expect(String(JSON.parse(res.text).value.member_no)).not.toBe(DEMO.big);
  });

  it('accepts a value with leading zeros as the same number', async () => {
    const token = await apiToken(fx.url);
    const res = await lookup(fx.url, token, `search_type=member_no&value=00${DEMO.admin}`);
    expect(res.json.value.member_no).toBe(Number(DEMO.admin));
  });
});
