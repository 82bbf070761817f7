import request from 'supertest';
import { PlatformError, errorForTransportFault, rateLimited } from '../../lib/errors/index.js';
import { problemResponse } from '../../lib/problem/index.js';
import { jitteredRetryAfter } from '../../lib/problem/retry-after-jitter.js';
import { EXPRESS_VERSIONS, buildApp } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

describe('jitteredRetryAfter', () => {
  it('spreads a base of 5 s over 3 to 7 whole seconds, ends included', () => {
    expect(jitteredRetryAfter(5, () => 0)).toBe(3);
    expect(jitteredRetryAfter(5, () => 0.5)).toBe(5);
    expect(jitteredRetryAfter(5, () => 0.9999999)).toBe(7);
  });

  it('keeps at least 1 s and survives a source outside [0, 1)', () => {
    expect(jitteredRetryAfter(1, () => 0.99)).toBe(1);
    expect(jitteredRetryAfter(0, () => 0)).toBe(1);
    expect(jitteredRetryAfter(5, () => 1)).toBe(7);
    expect(jitteredRetryAfter(5, () => -1)).toBe(3);
  });

  it('spreads a larger base the same way (30 s: 18 to 42)', () => {
    expect(jitteredRetryAfter(30, () => 0)).toBe(18);
    expect(jitteredRetryAfter(30, () => 0.9999999)).toBe(42);
  });
});

describe('Retry-After on overload and outage answers', () => {
  it('varies over 60 answers of one outage, always within 3 to 7 s', () => {
    const error = errorForTransportFault('timeout', 'E2');
    const values = Array.from({ length: 60 }, () => Number(problemResponse(error).headers['Retry-After']));
    for (const v of values) expect(v >= 3 && v <= 7 && Number.isInteger(v)).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(1);
  });

  it('keeps a 429 window exact: it is the limiter\'s own', () => {
    const values = Array.from({ length: 20 }, () => problemResponse(rateLimited('slow down', 2)).headers['Retry-After']);
    expect(new Set(values)).toEqual(new Set(['2']));
  });

  it('spreads an explicit 503 base too', () => {
    const error = new PlatformError({ kind: 'platform_unavailable', message: 'x', retryAfterSeconds: 10 });
    const values = Array.from({ length: 60 }, () => Number(problemResponse(error).headers['Retry-After']));
    expect(Math.min(...values)).toBeGreaterThanOrEqual(6);
    expect(Math.max(...values)).toBeLessThanOrEqual(14);
    expect(new Set(values).size).toBeGreaterThan(1);
  });

  it.each(EXPRESS_VERSIONS)('on the wire (%s): 40 outage answers carry 3 to 7 s, not all the same', async (_version, expressFn) => {
    const app = buildApp(expressFn, { mode: 'requireGameUser', auth: { client: fakeVerifier() } });
    const values: number[] = [];
    for (let i = 0; i < 40; i++) {
      const res = await request(app).get('/api/me').set('Authorization', 'Bearer down');
      expect(res.status).toBe(503);
      values.push(Number(res.headers['retry-after']));
    }
    for (const v of values) expect(v >= 3 && v <= 7).toBe(true);
    expect(new Set(values).size).toBeGreaterThan(1);
  });
});
