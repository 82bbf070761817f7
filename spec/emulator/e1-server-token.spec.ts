import { DAYS_30_MS, useEmulator, withEmulator } from '../support/emulator-fixture.js';
import { DEMO, apiToken, call, issue, lookup, postJson } from '../support/emulator-http.js';
import type { EmulatorSeed } from '../../lib/emulator/index.js';

const SHORT_TTL_SEED: EmulatorSeed = {
  clients: [{ client_id: 'short', client_secret: 's3cret', service_id: 'demo-game', api_token_ttl_seconds: 1000 }],
  members: [{ member_no: '1', guids: { 'demo-game': '2' } }],
};
const SHORT = { client_id: 'short', client_secret: 's3cret', service_id: 'demo-game' };

describe('E1 POST /auth/v5/server_token', () => {
  const fx = useEmulator();

  it('issues an opaque 171-character base64url token with token_type and expires_in in seconds', async () => {
    const res = await issue(fx.url);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      code: 0,
      message: 'success',
      response_data: { access_token: expect.stringMatching(/^[A-Za-z0-9_-]{171}$/), token_type: 'bearer', expires_in: expect.any(Number) },
    });
    expect(res.json.response_data.expires_in).toBeGreaterThan(DAYS_30_MS / 1000 - 5);
    expect(res.json.response_data.expires_in).toBeLessThanOrEqual(DAYS_30_MS / 1000);
  });

  it('gives every caller of a client_id without instance_id the same token', async () => {
    const [a, b] = await Promise.all([apiToken(fx.url), apiToken(fx.url)]);
    expect(a).toBe(b);
  });

  it('keeps tokens separate per instance_id', async () => {
    const shared = await apiToken(fx.url);
    const a1 = await apiToken(fx.url, { instance_id: 'server-a' });
    const a2 = await apiToken(fx.url, { instance_id: 'server-a' });
    const b = await apiToken(fx.url, { instance_id: 'server-b' });
    expect(a1).toBe(a2);
    expect(new Set([shared, a1, b]).size).toBe(3);
    expect(fx.emulator.requests({ endpoint: 'E1' }).map((e) => e.instanceId)).toEqual([undefined, 'server-a', 'server-a', 'server-b']);
  });

  it('answers 40105 with HTTP 200 for a wrong secret or an unknown client_id', async () => {
    for (const body of [{ client_secret: 'wrong' }, { client_id: 'nobody' }, { client_secret: DEMO.sandboxClientSecret }]) {
      const res = await issue(fx.url, body);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ code: 40105, message: expect.any(String) });
    }
  });

  it('answers 40105 for the keys of the other environment', async () => {
    const sandboxOnLive = await issue(fx.url, { client_id: DEMO.sandboxClientId, client_secret: DEMO.sandboxClientSecret });
    expect(sandboxOnLive.json.code).toBe(40105);
    await withEmulator({ environment: 'sandbox' }, async (sandbox) => {
      expect((await issue(sandbox.url)).json.code).toBe(40105);
      const ok = await issue(sandbox.url, { client_id: DEMO.sandboxClientId, client_secret: DEMO.sandboxClientSecret });
      expect(ok.json.code).toBe(0);
    });
  });

  it('answers 41002 when service_id is not the client\'s Game ID', async () => {
    const res = await issue(fx.url, { service_id: DEMO.otherGameId });
    expect(res.json).toEqual({ code: 41002, message: 'invalid game id' });
  });

  it.each([
    ['client_id missing', { client_id: undefined }],
    ['client_secret missing', { client_secret: undefined }],
    ['service_id missing', { service_id: undefined }],
    ['client_id empty', { client_id: '' }],
    ['client_secret a number', { client_secret: 12 }],
    ['instance_id an object', { instance_id: { a: 1 } }],
  ])('answers 40000 when %s', async (_name, body) => {
    const res = await issue(fx.url, body);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ code: 40000, message: 'bad request' });
  });

  it('answers 40000 for a body that is not a JSON object', async () => {
    for (const raw of ['', 'not json', '[1,2]', '"text"']) {
      expect((await postJson(`${fx.url}/auth/v5/server_token`, raw)).json.code).toBe(40000);
    }
  });

  it('answers 405 to a GET', async () => {
    const res = await call(`${fx.url}/auth/v5/server_token`);
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('E1 token reuse and renewal on the emulator clock', () => {
  it('returns the same token with the remaining lifetime while 30 % or more remains, a new one below', async () => {
    await withEmulator({ seed: SHORT_TTL_SEED, clock: 'frozen' }, async (emulator) => {
      const first = (await issue(emulator.url, SHORT)).json.response_data;
      expect(first.expires_in).toBe(1000);
      emulator.advanceClock(700_000);
      const atThreshold = (await issue(emulator.url, SHORT)).json.response_data;
      expect(atThreshold).toEqual({ access_token: first.access_token, token_type: 'bearer', expires_in: 300 });
      emulator.advanceClock(1);
      const renewed = (await issue(emulator.url, SHORT)).json.response_data;
      expect(renewed.access_token).not.toBe(first.access_token);
      expect(renewed.expires_in).toBe(1000);
      expect((await issue(emulator.url, SHORT)).json.response_data.access_token).toBe(renewed.access_token);
    });
  });

  it('uses 30 days by default: same token at 69 % elapsed, new token at 71 %', async () => {
    await withEmulator({}, async (emulator) => {
      const first = await apiToken(emulator.url);
      emulator.advanceClock(DAYS_30_MS * 0.69);
      const res = await issue(emulator.url);
      expect(res.json.response_data.access_token).toBe(first);
      expect(res.json.response_data.expires_in).toBeGreaterThan(DAYS_30_MS * 0.31 / 1000 - 5);
      expect(res.json.response_data.expires_in).toBeLessThanOrEqual(DAYS_30_MS * 0.31 / 1000);
      emulator.advanceClock(DAYS_30_MS * 0.02);
      expect(await apiToken(emulator.url)).not.toBe(first);
    });
  });

  it('keeps a replaced token valid until its own expiry, then answers 40103', async () => {
    await withEmulator({ seed: SHORT_TTL_SEED, clock: 'frozen' }, async (emulator) => {
      const old = (await issue(emulator.url, SHORT)).json.response_data.access_token as string;
      emulator.advanceClock(800_000);
      const fresh = (await issue(emulator.url, SHORT)).json.response_data.access_token as string;
      expect(fresh).not.toBe(old);
      expect((await lookup(emulator.url, old, 'search_type=member_no&value=1')).json.code).toBe(0);
      emulator.advanceClock(199_999);
      expect((await lookup(emulator.url, old, 'search_type=member_no&value=1')).json.code).toBe(0);
      emulator.advanceClock(1);
      const expired = await lookup(emulator.url, old, 'search_type=member_no&value=1');
      expect(expired.status).toBe(401);
      expect(expired.json.code).toBe(40101); // E3's table has no 40103
      expect((await lookup(emulator.url, fresh, 'search_type=member_no&value=1')).json.code).toBe(0);
    });
  });

  it('applies api_token_ttl_seconds per client', async () => {
    await withEmulator({ seed: SHORT_TTL_SEED }, async (emulator) => {
      expect((await issue(emulator.url, SHORT)).json.response_data.expires_in).toBe(1000);
    });
  });

  it('hands back the rejected token after an injected 40101 (a reissue is not always a new token)', async () => {
    await withEmulator({}, async (emulator) => {
      const token = await apiToken(emulator.url);
      emulator.injectFault({ endpoint: 'E3', type: 'code', code: 40101, status: 401 });
      const rejected = await lookup(emulator.url, token, `search_type=member_no&value=${DEMO.admin}`);
      expect([rejected.status, rejected.json.code]).toEqual([401, 40101]);
      expect(await apiToken(emulator.url)).toBe(token);
    });
  });
});
