import request from 'supertest';
import { DEMO, startAppHarness } from '../support/app-harness.js';
import type { AppHarness } from '../support/app-harness.js';

let h: AppHarness;
let adminToken: string;

beforeAll(async () => {
  h = await startAppHarness({ app: { adminMemberNos: new Set([DEMO.admin, DEMO.big]) } });
  adminToken = h.token(DEMO.admin);
});

beforeEach(() => h.emulator.clearRequests());

afterAll(async () => {
  await h.close();
});

const asAdmin = (query: string) => request(h.app).get(`/admin/members${query}`).set('Authorization', `Bearer ${adminToken}`);

describe('GET /admin/members', () => {
  it('looks a member up by member_no (E3)', async () => {
    const res = await asAdmin(`?search_type=member_no&value=${DEMO.player}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
  });

  it('looks a member up by guid, and accepts the upper-case search_type', async () => {
    const res = await asAdmin(`?search_type=GUID&value=${DEMO.playerGuid}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
  });

  it('answers guid null for a member without one', async () => {
    const res = await asAdmin(`?search_type=member_no&value=${DEMO.noGuid}`);
    expect(res.body).toEqual({ member_no: DEMO.noGuid, guid: null });
  });

  it('keeps identifiers above 2^53 exact, both ways', async () => {
    const byGuid = await asAdmin(`?search_type=guid&value=${DEMO.bigGuid}`);
    expect(byGuid.text).toBe(`{"member_no":"${DEMO.big}","guid":"${DEMO.bigGuid}"}`);
    const bigAdmin = await request(h.app).get(`/admin/members?search_type=member_no&value=${DEMO.big}`)
      .set('Authorization', `Bearer ${h.token(DEMO.big)}`);
    expect(bigAdmin.status).toBe(200);
  });

  it('answers 404 problem for an unknown member', async () => {
    const res = await asAdmin('?search_type=member_no&value=12345');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 404, action: 'none' });
  });

  it('answers 403 access_denied to a player who is not an admin, without looking anything up', async () => {
    const res = await request(h.app).get(`/admin/members?search_type=member_no&value=${DEMO.admin}`)
      .set('Authorization', `Bearer ${h.token(DEMO.player)}`);
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toBe('Bearer realm="game-platform", error="insufficient_scope"'); // RFC 6750 3.1 (was: none)
    expect(res.body).toMatchObject({ status: 403, action: 'denied' });
    expect(res.body.type).toMatch(/access_denied$/);
    expect(res.body.detail).toBe('Only administrators (ADMIN_MEMBER_NOS) may look members up.');
    expect(h.emulator.requests({ endpoint: 'E3' })).toHaveLength(0);
  });

  it('answers 401 without credentials', async () => {
    const res = await request(h.app).get(`/admin/members?search_type=member_no&value=${DEMO.player}`);
    expect(res.status).toBe(401);
    expect(res.body.action).toBe('login');
  });

  it.each([
    ['no query', ''],
    ['an unknown search_type', '?search_type=email&value=1'],
    ['a value that is not digits', '?search_type=member_no&value=12a'],
    ['an empty value', '?search_type=member_no&value='],
    ['a repeated value', '?search_type=member_no&value=1&value=2'],
    ['a value of 31 digits', `?search_type=member_no&value=${'1'.repeat(31)}`],
  ])('answers 400 problem for %s, without calling E3', async (_name, query) => {
    const res = await asAdmin(query);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ status: 400, action: 'none' });
    expect(typeof res.body.detail).toBe('string');
    expect(h.emulator.requests({ endpoint: 'E3' })).toHaveLength(0);
  });
});
