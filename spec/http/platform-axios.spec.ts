import { BadBody } from '../../lib/http/index.js';
import { resolvesStatus, transformPlatformResponse } from '../../lib/http/platform-axios.js';

describe('The platform axios instance', () => {
  it('resolves every status, so that neither a success nor a platform answer becomes an AxiosError', () => {
    expect([200, 204, 302, 400, 401, 404, 499, 429, 500, 502, 503, 599].every(() => resolvesStatus())).toBe(true);
  });

  it('returns parsed bodies, whatever the status; the HTTP layer decides on retries', () => {
    expect(transformPlatformResponse('{"code":0,"value":{}}')).toEqual({ code: 0, fields: { code: expect.anything(), value: {} } });
    expect(transformPlatformResponse('{"code":40000}')).toMatchObject({ code: 40000 });
    expect(transformPlatformResponse('{"code":50000}')).toMatchObject({ code: 50000 });
    expect(transformPlatformResponse('<html>not found</html>')).toBeInstanceOf(BadBody);
    expect(transformPlatformResponse('')).toBeInstanceOf(BadBody);
  });
});
