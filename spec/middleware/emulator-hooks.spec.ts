import request from 'supertest';
import { accessDenied } from '../../lib/auth/index.js';
import { DEFAULT_MEMBERS } from '../../lib/emulator/index.js';
import { useEmulator } from '../support/emulator-fixture.js';
import { EXPRESS_VERSIONS, type GuardMode } from '../support/http-apps.js';
import { emulatorApps, emulatorClients } from '../support/http-emulator-client.js';

const MODES: GuardMode[] = ['requireGameUser', 'passport'];

const IR = /^Bearer realm="game-platform", error="invalid_request"/;
const IT = /^Bearer realm="game-platform", error="invalid_token"/;
const BARE = 'Bearer realm="game-platform"';

const fixture = useEmulator();
const clients = emulatorClients(() => fixture.emulator);
afterAll(() => clients.closeAll());

describe.each(EXPRESS_VERSIONS)('%s with the emulator: options and hooks', (_version, expressFn) => {
  describe.each(MODES)('through %s', (mode) => {
    const { app, get } = emulatorApps(expressFn, mode, clients);

    it('credentialsRequired: false lets anonymous requests through, but not bad tokens', async () => {
      const a = await app();
      expect((await request(a).get('/open')).body).toEqual({ user: null });
      expect((await request(a).get('/open').set('Authorization', 'Basic x')).body).toEqual({ user: null });
      const bad = await request(a).get('/open').set('Authorization', 'Bearer a,b');
      expect(bad.status).toBe(401);
      expect(bad.headers['www-authenticate']).toMatch(IT);
      expect((await request(a).get('/open').set('Authorization', 'Bearer')).headers['www-authenticate']).toMatch(IR);
      const { access_token } = fixture.emulator.login(DEFAULT_MEMBERS.player);
      fixture.emulator.logout(access_token);
      expect((await request(a).get('/open').set('Authorization', `Bearer ${access_token}`)).status).toBe(401);
      const ok = await request(a).get('/open').set('Authorization', `Bearer ${fixture.emulator.login(DEFAULT_MEMBERS.player).access_token}`);
      expect(ok.body.user).toMatchObject({ memberNo: DEFAULT_MEMBERS.player });
    });

    it('mapUser adds app data to req.user; authorize denies with 403 and the app\'s code', async () => {
      const a = await app({
        mapUser: (user) => ({ role: user.memberNo === DEFAULT_MEMBERS.admin ? 'admin' : 'player' }),
        authorize: (user) => {
          if (user.memberNo === DEFAULT_MEMBERS.player) throw accessDenied({ code: 9001, detail: 'This account is suspended.' });
          return user.memberNo !== DEFAULT_MEMBERS.noGuid;
        },
      });
      const admin = await get(a, fixture.emulator.login(DEFAULT_MEMBERS.admin).access_token);
      expect(admin.status).toBe(200);
      expect(admin.body.user).toEqual({ memberNo: DEFAULT_MEMBERS.admin, guid: '200000000397', role: 'admin' });
      const sanctioned = await get(a, fixture.emulator.login(DEFAULT_MEMBERS.player).access_token);
      expect(sanctioned.status).toBe(403);
      expect(sanctioned.body).toMatchObject({ action: 'denied', code: 9001, detail: 'This account is suspended.' });
      expect(sanctioned.headers['www-authenticate']).toBe('Bearer realm="game-platform", error="insufficient_scope"'); // RFC 6750 3.1 (was: none)
      const refused = await get(a, fixture.emulator.login(DEFAULT_MEMBERS.noGuid).access_token);
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject({ action: 'denied' });
      expect(refused.body).not.toHaveProperty('code');
    });

    it('verifies a SUAT cookie as a web token; the header wins over the cookie', async () => {
      const a = await app();
      const web = fixture.emulator.issueWebToken(DEFAULT_MEMBERS.player);
      const res = await request(a).get('/api/me').set('Cookie', `theme=dark; SUAT=${web}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ member_no: DEFAULT_MEMBERS.player, guid: '200000000401' });
      expect(fixture.emulator.requests({ endpoint: 'web' })).toHaveLength(1);
      expect(fixture.emulator.requests({ endpoint: 'E2' })).toHaveLength(0);
      const user = fixture.emulator.login(DEFAULT_MEMBERS.admin).access_token;
      const both = await request(a).get('/api/me').set('Cookie', `SUAT=${web}`).set('Authorization', `Bearer ${user}`);
      expect(both.body).toMatchObject({ member_no: DEFAULT_MEMBERS.admin });
    });

    it('answers 401 relogin for a web token the platform rejects', async () => {
      const res = await request(await app()).get('/api/me').set('Cookie', 'SUAT=eyJhbGciOiJIUzI1NiJ9.e30.bad');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ action: 'relogin' });
      expect(res.headers['www-authenticate']).toMatch(IT);
    });

    it('no credentials and no cookie: 401 bare', async () => {
      const res = await request(await app()).get('/api/me');
      expect(res.headers['www-authenticate']).toBe(BARE);
    });
  });
});
