import { isPlatformOutage } from '../../lib/errors/index.js';
import { faultFromBadBody } from '../../lib/platform-call/fault-boundary.js';

// Only the platform failing is an outage the grace may ride out: an edge's 3xx or 4xx page is a
// 503 for the caller all the same, but never a reason to serve a token without asking.
describe('which answers that are not the platform\'s JSON count as an outage', () => {
  it.each([500, 502, 503, 504])('HTTP %s: an outage', (status) => {
    const error = faultFromBadBody(status, 'not JSON', 'E2');
    expect(error).toMatchObject({ status: 503, kind: 'platform_unavailable' });
    expect(isPlatformOutage(error)).toBe(true);
  });

  it.each([301, 401, 403, 404, 429])('HTTP %s: a 503, not an outage', (status) => {
    const error = faultFromBadBody(status, 'not JSON', 'E2');
    expect(error).toMatchObject({ status: 503, kind: 'platform_unavailable' });
    expect(isPlatformOutage(error)).toBe(false);
  });
});
