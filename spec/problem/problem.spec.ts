import { PlatformError, errorForPlatformCode, invalidRequest, malformedToken, missingCredentials } from '../../lib/errors/index.js';
import { problemBody, problemFor } from '../../lib/problem/problem.js';

describe('problemBody', () => {
  it.each<[string, PlatformError, object]>([
    ['missing credentials', missingCredentials(), { status: 401, action: 'login', title: 'Authentication required' }],
    ['invalid request', invalidRequest('missing bearer token'), { status: 400, action: 'login' }],
    ['malformed token', malformedToken('x'), { status: 401, action: 'relogin' }],
    ['40000', errorForPlatformCode(40000, 'E2'), { status: 401, action: 'relogin', code: 40000 }],
    ['46217', errorForPlatformCode(46217, 'E2'), { status: 403, action: 'register_device', code: 46217 }],
    ['50000', errorForPlatformCode(50000, 'E2'), { status: 503, action: 'retry_later', code: 50000 }],
    ['41002', errorForPlatformCode(41002, 'E2'), { status: 500, action: 'contact_support', code: 41002 }],
  ])('%s', (_name, error, expected) => {
    const body = problemBody(error);
    expect(body).toMatchObject({ ...expected, type: `urn:passport-game-platform:problem:${error.kind}` });
    expect(Object.keys(body).sort()).toEqual(['action', 'detail', 'status', 'title', 'type', ...('code' in expected ? ['code'] : [])].sort());
  });

  it('keeps 5xx details generic', () => {
    expect(problemBody(errorForPlatformCode(40105, 'E1')).detail).not.toMatch(/PLATFORM_|client_secret/);
    expect(problemBody(errorForPlatformCode(50000, 'E2')).detail).toBe('The game platform is unavailable at the moment. Try again later.');
  });
});

describe('problemFor headers', () => {
  it('sets WWW-Authenticate on 400 and 401 only, Retry-After on 503 only', () => {
    expect(problemFor(missingCredentials()).headers).toEqual({ 'WWW-Authenticate': 'Bearer realm="game-platform"' });
    expect(problemFor(errorForPlatformCode(46217, 'E2')).headers).toEqual({});
    expect(problemFor(errorForPlatformCode(41002, 'E2')).headers).toEqual({});
    expect(problemFor(errorForPlatformCode(50000, 'E2')).headers).toEqual({ 'Retry-After': expect.stringMatching(/^[3-7]$/) });
    expect(problemFor(new PlatformError({ kind: 'platform_unavailable', message: 'x', retryAfterSeconds: 30 })).headers).toEqual({ 'Retry-After': expect.stringMatching(/^(1[89]|[23]\d|4[0-2])$/) });
  });

  it('sends no challenge for E3\'s 40000, which is our request, not the player\'s', () => {
    expect(problemFor(errorForPlatformCode(40000, 'E3')).headers).toEqual({});
  });
});
