import { fingerprint } from '../../lib/emulator/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, issue, lookup, postJson, verify } from '../support/emulator-http.js';

describe('request log', () => {
  const fx = useEmulator();

  it('records endpoint, method, path, caller-id, emulator time, status and code', async () => {
    fx.emulator.advanceClock(3_600_000);
    const before = fx.emulator.now();
    const token = await apiToken(fx.url);
    await lookup(fx.url, token, `search_type=MEMBER_NO&value=${DEMO.admin}`);
    const [e1, e3] = fx.emulator.requests();
    expect(e1).toMatchObject({ endpoint: 'E1', method: 'POST', path: '/auth/v5/server_token', callerId: 'demo-game_SERVER', status: 200, code: 0, clientId: DEMO.clientId });
    expect(e1?.time).toBeGreaterThanOrEqual(before);
    expect(e1?.time).toBeLessThan(before + 60_000);
    expect(e3).toMatchObject({ endpoint: 'E3', method: 'GET', path: `/member/v3.0/demo-game?search_type=MEMBER_NO&value=${DEMO.admin}`, callerId: null, status: 200, code: 0 });
    expect(e3?.authFingerprint).toBe(fingerprint(token));
  });

  it('masks Authorization to "Bearer ***<last 4>"', async () => {
    const token = await apiToken(fx.url);
    await lookup(fx.url, token, 'search_type=guid&value=1');
    expect(fx.emulator.requests({ endpoint: 'E3' })[0]?.headers.authorization).toBe(`Bearer ***${token.slice(-4)}`);
  });

  it('never holds a secret or a full token, whatever the endpoint', async () => {
    const token = await apiToken(fx.url);
    const pairRes = await postJson(`${fx.url}/_emulator/login`, { member_no: DEMO.admin });
    const pair = pairRes.json as { access_token: string; refresh_token: string };
    await verify(fx.url, token, pair.access_token);
    const refreshed = (await postJson(`${fx.url}/_emulator/refresh`, { refresh_token: pair.refresh_token })).json as { access_token: string; refresh_token: string };
    await postJson(`${fx.url}/_emulator/logout`, { access_token: refreshed.access_token });
    const web = fx.emulator.issueWebToken(DEMO.admin);
    await call(`${fx.url}/member/v3.0/${DEMO.gameId}`, { headers: { authorization: `Bearer ${web}`, cookie: `SUAT=${web}` } });
    await call(`${fx.url}/member/v3.0/${DEMO.gameId}?search_type=guid&value=1&access_token=${pair.access_token}&client_secret=${DEMO.clientSecret}`,
      { headers: { authorization: `Bearer ${token}`, 'x-api-key': DEMO.clientSecret } });
    await issue(fx.url, { client_secret: 'wrong-secret-value' });
    const login = await call(`${fx.url}/_emulator/web/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: `member_no=${DEMO.admin}&redirect_url=${encodeURIComponent('http://127.0.0.1/')}`,
    });
    const cookieToken = /SUAT=([^;]+)/.exec(login.headers.get('set-cookie') ?? '')?.[1] ?? 'missing';
    const logged = JSON.stringify(fx.emulator.requests());
    const overHttp = (await call(`${fx.url}/_emulator/requests`)).text;
    for (const secret of [DEMO.clientSecret, 'wrong-secret-value', token, pair.access_token, pair.refresh_token, refreshed.access_token, refreshed.refresh_token, web, cookieToken]) {
      expect(logged).not.toContain(secret);
      expect(overHttp).not.toContain(secret);
    }
    expect(fx.emulator.requests().map((e) => e.endpoint)).toEqual(['E1', 'control', 'E2', 'control', 'control', 'web', 'E3', 'E1', 'login-page', 'control']);
    expect(logged).toContain('access_token=***');
  });

  it('filters by endpoint and clears', async () => {
    await apiToken(fx.url);
    await call(`${fx.url}/member/v3.0/${DEMO.gameId}`);
    expect(fx.emulator.requests({ endpoint: 'web' })).toHaveLength(1);
    expect(fx.emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
    fx.emulator.clearRequests();
    expect(fx.emulator.requests()).toEqual([]);
  });

  it('returns copies that callers cannot change', async () => {
    await apiToken(fx.url);
    const [entry] = fx.emulator.requests();
    if (entry) entry.headers.host = 'changed';
    expect(fx.emulator.requests()[0]?.headers.host).not.toBe('changed');
  });
});
