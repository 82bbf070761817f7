import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, issue, lookup, verify } from '../support/emulator-http.js';
import type { Emulator, ErrorStatusStyle } from '../../lib/emulator/index.js';

type Case = [name: string, run: (url: string, token: string, emulator: Emulator) => Promise<{ status: number; json: { code: number } }>];

const CASES: Case[] = [
  ['E1 40000', (url) => issue(url, { service_id: undefined })],
  ['E1 40105', (url) => issue(url, { client_secret: 'wrong' })],
  ['E1 41002', (url) => issue(url, { service_id: DEMO.otherGameId })],
  ['E2 40000', (url, t) => verify(url, t, 'nope')],
  ['E2 40101', (url) => verify(url, 'bad-api-token', 'nope')],
  ['E2 41002', (url, t) => verify(url, t, 'nope', DEMO.otherGameId)],
  ['E2 46217', (url, t, e) => verify(url, t, e.login(DEMO.unregistered).access_token)],
  ['E3 40000', (url, t) => lookup(url, t, 'search_type=x&value=1')],
  ['E3 40101', (url) => lookup(url, 'bad', 'search_type=guid&value=1')],
  ['E3 41002', (url, t) => lookup(url, t, 'search_type=guid&value=1', DEMO.otherGameId)],
  ['web 40000', (url) => call(`${url}/member/v3.0/${DEMO.gameId}`, { headers: { authorization: 'Bearer nope' } })],
  ['E2 50000 (fault)', (url, t, e) => (e.injectFault({ endpoint: 'E2', type: 'code', code: 50000 }), verify(url, t, 'x'))],
];

const EXPECTED: Record<ErrorStatusStyle, number[]> = {
  //            E1: 40000 40105 41002 | E2: 40000 40101 41002 46217 | E3: 40000 40101 41002 | web | 50000
  platform: [200, 200, 200, 200, 401, 200, 200, 200, 401, 200, 200, 200],
  ok: [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
  http: [400, 401, 403, 400, 401, 403, 403, 400, 401, 403, 400, 500],
};

describe.each(Object.keys(EXPECTED) as ErrorStatusStyle[])('errorStatus: %s', (style) => {
  const fx = useEmulator({ errorStatus: style });

  it('answers each error code with the style\'s HTTP status, the code in the body either way', async () => {
    const token = await apiToken(fx.url);
    const seen: Array<[string, number, number]> = [];
    for (const [name, run] of CASES) {
      const res = await run(fx.url, token, fx.emulator);
      seen.push([name, res.status, res.json.code]);
    }
    expect(seen).toEqual(CASES.map(([name], i) => [name, EXPECTED[style][i], Number(name.match(/\d{5}/)?.[0])]));
  });

  it('answers success with HTTP 200', async () => {
    const token = await apiToken(fx.url);
    expect((await verify(fx.url, token, fx.emulator.login(DEMO.admin).access_token)).status).toBe(200);
  });
});
