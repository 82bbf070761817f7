import { useEmulator } from '../support/emulator-fixture.js';
import { DEMO, call } from '../support/emulator-http.js';

// A page on any site can send a form or text/plain POST to the emulator without a CORS
// preflight. Before the fix, such a POST queued a `hang` fault and logged the browser in as a
// member chosen by that site.
describe('emulator: writes from another site', () => {
  const fx = useEmulator({ clock: 'frozen' });
  const back = 'http://localhost:3000/event';

  it.each([
    ['text/plain', 'text/plain'],
    ['a form', 'application/x-www-form-urlencoded'],
    ['multipart', 'multipart/form-data; boundary=x'],
    ['no content type', undefined],
  ])('refuses a control POST sent as %s with 415, and queues nothing', async (_name, type) => {
    const res = await call(`${fx.url}/_emulator/faults`, {
      method: 'POST',
      headers: type === undefined ? {} : { 'content-type': type },
      body: JSON.stringify({ endpoint: 'E2', type: 'hang' }),
    });
    expect(res.status).toBe(415);
    expect(res.json).toEqual({ error: 'control routes take application/json' });
    expect((await call(`${fx.url}/_emulator/faults`)).json).toEqual({ pending: [] });
  });

  it('still takes application/json, with parameters', async () => {
    const res = await call(`${fx.url}/_emulator/login`, {
      method: 'POST',
      headers: { 'content-type': 'Application/JSON; charset=utf-8' },
      body: JSON.stringify({ member_no: DEMO.admin }),
    });
    expect(res.status).toBe(200);
  });

  const post = (headers: Record<string, string>): ReturnType<typeof call> => call(`${fx.url}/_emulator/web/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ member_no: DEMO.admin, redirect_url: back }).toString(),
  });

  it.each([
    ['Origin of another site', { origin: 'https://evil.example' }],
    ['Origin "null"', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (another port or subdomain)', { 'sec-fetch-site': 'same-site' }],
  ])('refuses a login form posted with %s (403, no cookie)', async (_name, headers) => {
    const res = await post(headers);
    expect(res.status).toBe(403);
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('accepts the login form from its own page, and from tools that send no Origin', async () => {
    const own = new URL(fx.url);
    const fromPage = await post({ origin: own.origin, 'sec-fetch-site': 'same-origin' });
    expect([fromPage.status, fromPage.headers.get('location')]).toEqual([302, back]);
    expect(fromPage.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect((await post({})).status).toBe(302);
  });
});
