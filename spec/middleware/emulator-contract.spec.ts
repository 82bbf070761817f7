import request from 'supertest';
import type { PlatformConfig } from '../../lib/config/index.js';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { EXPRESS_VERSIONS, listen, type GuardMode } from '../support/http-apps.js';
import { sendRaw } from '../support/raw-http.js';
import { emulatorApps, emulatorClients } from '../support/http-emulator-client.js';

const MODES: GuardMode[] = ['requireGameUser', 'passport'];

const IT = /^Bearer realm="game-platform", error="invalid_token"/;

const fixture = useEmulator();
const clients = emulatorClients(() => fixture.emulator);
afterAll(() => clients.closeAll());

const platformCalls = () => fixture.emulator.requests().filter((r) => r.endpoint === 'E2' || r.endpoint === 'web');


describe.each(EXPRESS_VERSIONS)('%s with the emulator: the error table', (_version, expressFn) => {
  describe.each(MODES)('through %s', (mode) => {
    const { app, get } = emulatorApps(expressFn, mode, clients);

    it('answers 200 with exact identifiers for a valid token', async () => {
      const a = await app();
      const big = await get(a, fixture.emulator.login(DEFAULT_MEMBERS.bigIds).access_token);
      expect(big.status).toBe(200);
      expect(big.body).toMatchObject({ member_no: '9007199254740993', guid: '9007199254740995' });
      const noGuid = await get(a, fixture.emulator.login(DEFAULT_MEMBERS.noGuid).access_token);
      expect(noGuid.body).toMatchObject({ member_no: DEFAULT_MEMBERS.noGuid, guid: null });
    });

    it('40000 (logged out): 401 relogin, code 40000, invalid_token', async () => {
      const a = await app();
      const { access_token } = fixture.emulator.login(DEFAULT_MEMBERS.player);
      fixture.emulator.logout(access_token);
      const res = await get(a, access_token);
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ status: 401, action: 'relogin', code: 40000 });
      expect(res.headers['www-authenticate']).toMatch(IT);
    });

    it('46217: 403 register_device, no challenge', async () => {
      const res = await get(await app(), fixture.emulator.login(DEFAULT_MEMBERS.unregisteredDevice).access_token);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ status: 403, action: 'register_device', code: 46217 });
      expect(res.headers['www-authenticate']).toBeUndefined();
    });

    it.each<[string, Partial<PlatformConfig>, number]>([
      ['40105 (wrong secret)', { clientSecret: 'wrong-secret' }, 40105],
      ['41002 (Game ID of another game)', { gameId: 'other-game' }, 41002],
    ])('%s: 500 contact_support, never 401', async (_name, overrides, code) => {
      const res = await get(await app({}, overrides), fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ status: 500, action: 'contact_support', code });
      expect(res.headers['www-authenticate']).toBeUndefined();
      expect(res.text).not.toMatch(/secret|PLATFORM_/);
    });

    it.each([41002, 40101])('E2 answering %i (after one reissue): 500 contact_support', async (code) => {
      const a = await app();
      const token = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
      fixture.emulator.injectFault({ type: 'code', code, endpoint: 'E2', count: -1 });
      const res = await get(a, token);
      expect(res.status).toBe(500);
      expect(res.body).toMatchObject({ action: 'contact_support', code });
      expect(res.headers['www-authenticate']).toBeUndefined();
    });

    it.each<[string, Parameters<typeof fixture.emulator.injectFault>[0], number | undefined]>([
      ['dropped connections', { type: 'drop', endpoint: 'E2', count: -1 }, undefined],
      ['5xx with an HTML body', { type: 'http5xx', endpoint: 'E2', count: -1 }, undefined],
      ['50000 after retries', { type: 'code', code: 50000, endpoint: 'E2', count: -1 }, 50000],
      ['a hang', { type: 'hang', endpoint: 'E2', count: -1 }, undefined],
    ])('platform down (%s): 503 retry_later with Retry-After, never 401', async (_name, fault, code) => {
      // A hang ends only at the budget: the short one a timeout case takes.
      const a = await app({}, fault.type === 'hang' ? { timeoutMs: 300, totalTimeoutMs: 1500 } : {});
      const token = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
      fixture.emulator.injectFault(fault);
      const res = await get(a, token);
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ status: 503, action: 'retry_later' });
      if (code === undefined) expect(res.body).not.toHaveProperty('code');
      else expect(res.body.code).toBe(code);
      expect(res.headers['retry-after']).toMatch(/^\d+$/);
      expect(res.headers['www-authenticate']).toBeUndefined();
    });

    it('makes no platform call for any malformed request or token', async () => {
      const a = await app();
      const good = fixture.emulator.login(DEFAULT_MEMBERS.player).access_token;
      const cases: [Record<string, string>, string, number][] = [
        [{}, '/api/me', 401],
        [{ Authorization: 'Basic dXNlcjpwYXNz' }, '/api/me', 401],
        [{ Authorization: 'Bearer' }, '/api/me', 400],
        [{ Authorization: `Bearer ${good} extra` }, '/api/me', 400],
        [{ Authorization: `Bearer ${good}` }, `/api/me?access_token=${good}`, 400],
        [{}, `/api/me?access_token=${good}&access_token=${good}`, 400],
        [{ Authorization: `Bearer ${good}"` }, '/api/me', 401],
        [{ Authorization: `Bearer ${'a'.repeat(4097)}` }, '/api/me', 401],
        [{ Authorization: 'Bearer undefined' }, '/api/me', 401],
        [{ Cookie: `SUAT=${good}; SUAT=other` }, '/api/me', 400],
        [{ Cookie: 'SUAT=a<b' }, '/api/me', 401],
      ];
      for (const [headers, path, status] of cases) {
        const res = await request(a).get(path).set(headers);
        expect({ path, headers, status: res.status }).toEqual({ path, headers, status });
      }
      const server = await listen(a);
      try {
        const raw: string[][] = [
          ['Authorization: Bearer bad', `Authorization: Bearer ${good}`],
          [`Authorization: Bearer ${good}`, 'Authorization: Bearer bad'],
          [`Authorization: Bearer\t${good}`],
        ];
        for (const lines of raw) expect((await sendRaw(server.port, { lines })).status).toBe(400);
      } finally {
        await server.close();
      }
      expect(platformCalls()).toEqual([]);
    });
  });
});
