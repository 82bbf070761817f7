import { BadBody, classifyNoResponse, fullJitterDelay, isRetryableResponse, retryAfterMs } from '../../lib/platform-call/index.js';

describe('fullJitterDelay', () => {
  it('draws below min(max, base * 2^(retry-1))', () => {
    expect(fullJitterDelay(1, 100, 1000, () => 0.999)).toBe(99);
    expect(fullJitterDelay(3, 100, 1000, () => 0.999)).toBe(399);
    expect(fullJitterDelay(10, 100, 1000, () => 0.999)).toBe(999);
    expect(fullJitterDelay(3, 100, 1000, () => 0)).toBe(0);
  });
});

describe('retryAfterMs', () => {
  it('honours Retry-After in seconds or as a date, capped', () => {
    expect(retryAfterMs('1', 5000)).toBe(1000);
    expect(retryAfterMs('3600', 2000)).toBe(2000);
    const now = Date.parse('2030-01-01T00:00:00Z');
    expect(retryAfterMs('Tue, 01 Jan 2030 00:00:01 GMT', 5000, now)).toBe(1000);
  });

  it('ignores absent, past or unreadable values', () => {
    for (const header of [undefined, '', 'soon', '-5', 'Mon, 01 Jan 2001 00:00:00 GMT']) expect(retryAfterMs(header, 5000)).toBe(0);
  });
});

describe('isRetryableResponse', () => {
  it('retries 50000 whatever the status, and non-JSON bodies on 5xx, 429 and 2xx', () => {
    expect(isRetryableResponse(200, { code: 50000, fields: {} })).toBe(true);
    expect(isRetryableResponse(500, { code: 50000, fields: {} })).toBe(true);
    expect(isRetryableResponse(502, new BadBody('not JSON'))).toBe(true);
    expect(isRetryableResponse(429, new BadBody('not JSON'))).toBe(true);
    expect(isRetryableResponse(200, new BadBody('not JSON'))).toBe(true);
  });

  it('lets any other JSON code decide, even with a 5xx status', () => {
    expect(isRetryableResponse(500, { code: 40000, fields: {} })).toBe(false);
    expect(isRetryableResponse(401, { code: 40101, fields: {} })).toBe(false);
    expect(isRetryableResponse(404, new BadBody('not JSON'))).toBe(false);
    expect(isRetryableResponse(302, new BadBody('empty body'))).toBe(false);
  });
});

describe('classifyNoResponse', () => {
  it('sorts low-level failures', () => {
    expect(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', undefined, 'HPE_INVALID_CONSTANT'].map(classifyNoResponse)).toEqual(Array(5).fill('network'));
    expect(classifyNoResponse('ETIMEDOUT')).toBe('timeout');
    expect(classifyNoResponse('ERR_CANCELED')).toBe('canceled');
    expect(classifyNoResponse('ERR_BAD_RESPONSE')).toBe('bad_body');
    expect(classifyNoResponse('ERR_INVALID_URL')).toBe('fatal');
  });
});
