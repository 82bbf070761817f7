import { PlatformError, errorForPlatformCode, errorForTransportFault, invalidRequest, missingCredentials } from '../../lib/errors/index.js';
import { problemResponse } from '../../lib/problem/problem-response.js';

const BASE = { 'Content-Type': 'application/problem+json; charset=utf-8', 'Cache-Control': 'no-store' };

describe('problemResponse: the one renderer of failures', () => {
  it('renders a 401 with its challenge in the error\'s realm', () => {
    const error = missingCredentials().withRealm('my-game');
    expect(problemResponse(error)).toEqual({
      status: 401,
      headers: { ...BASE, 'WWW-Authenticate': 'Bearer realm="my-game"' },
      body: { type: 'urn:passport-game-platform:problem:missing_credentials', title: 'Authentication required', status: 401, action: 'login', detail: 'No bearer token was sent.' },
    });
  });

  it('lets the caller\'s realm override the error\'s', () => {
    expect(problemResponse(invalidRequest('x'), { realm: 'api' }).headers['WWW-Authenticate']).toBe('Bearer realm="api", error="invalid_request", error_description="x"');
  });

  it('renders 40000, 46217, an outage and a configuration fault with code, action and Retry-After', () => {
    const invalid = problemResponse(errorForPlatformCode(40000, 'E2'));
    expect(invalid).toMatchObject({ status: 401, body: { action: 'relogin', code: 40000 } });
    expect(invalid.headers['WWW-Authenticate']).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
    expect(problemResponse(errorForPlatformCode(46217, 'E2'))).toMatchObject({ status: 403, headers: BASE, body: { action: 'register_device', code: 46217 } });
    expect(problemResponse(errorForTransportFault('timeout', 'E2'))).toMatchObject({ status: 503, headers: { ...BASE, 'Retry-After': expect.stringMatching(/^[3-7]$/) }, body: { action: 'retry_later' } });
    const config = problemResponse(errorForPlatformCode(40105, 'E1'));
    expect(config).toMatchObject({ status: 500, headers: BASE, body: { action: 'contact_support', code: 40105 } });
    expect(config.body.detail).not.toMatch(/PLATFORM_/);
    expect(problemResponse(errorForPlatformCode(40105, 'E1'), { exposeDetail: true }).body.detail).toMatch(/PLATFORM_CLIENT_SECRET/);
  });

  it('renders anything unknown as a generic 500 without its message', () => {
    for (const err of [new Error('db password hunter2'), 'a string', undefined, null, { status: 418 }]) {
      const res = problemResponse(err);
      expect(res).toEqual({ status: 500, headers: BASE, body: { type: 'urn:passport-game-platform:problem:internal_error', title: 'Internal server error', status: 500, action: 'none', detail: 'The server failed to handle the request.' } });
    }
  });

  it('renders body-parser errors and passport\'s AuthenticationError by their status', () => {
    const parse = Object.assign(new Error('Unexpected token s in {"access_token":"s3cret"'), { status: 400, expose: true, type: 'entity.parse.failed' });
    expect(problemResponse(parse)).toMatchObject({ status: 400, body: { type: 'urn:passport-game-platform:problem:malformed_body' } });
    expect(JSON.stringify(problemResponse(parse))).not.toContain('s3cret');
    const auth = Object.assign(new Error('Unauthorized'), { name: 'AuthenticationError', status: 401 });
    expect(problemResponse(auth)).toMatchObject({ status: 401, headers: { 'WWW-Authenticate': 'Bearer realm="game-platform"' }, body: { action: 'login' } });
  });

  it('is plain data a WebSocket refusal or a Socket.IO connect_error can carry', () => {
    const res = problemResponse(new PlatformError({ kind: 'platform_unavailable', message: 'x', retryAfterSeconds: 30 }));
    expect(JSON.parse(JSON.stringify(res))).toEqual(res);
    expect(Number(res.headers['Retry-After'])).toBeGreaterThanOrEqual(18);
    expect(Number(res.headers['Retry-After'])).toBeLessThanOrEqual(42);
  });
});
