import { inspect } from 'node:util';
import {
  errorForPlatformCode,
  errorForTransportFault,
  PlatformError,
} from '../../lib/errors/index.js';

describe('errorForPlatformCode: the one map from platform codes to outcomes', () => {
  it.each([
    [40000, 'E2', 'invalid_token', 401, 'relogin'],
    [40000, 'web', 'invalid_token', 401, 'relogin'],
    [40000, 'E3', 'invalid_request', 400, 'none'],
    [40101, 'E2', 'configuration', 500, 'contact_support'],
    [40103, 'E2', 'configuration', 500, 'contact_support'],
    [40105, 'E1', 'configuration', 500, 'contact_support'],
    [41002, 'E2', 'configuration', 500, 'contact_support'],
    [41002, 'E3', 'configuration', 500, 'contact_support'],
    [46217, 'E2', 'device_not_registered', 403, 'register_device'],
    [50000, 'E2', 'platform_unavailable', 503, 'retry_later'],
    [40000, 'E1', 'configuration', 500, 'contact_support'],
    [40101, 'web', 'invalid_token', 401, 'relogin'],
    [40103, 'web', 'invalid_token', 401, 'relogin'],
    [12345, 'E2', 'platform_unavailable', 503, 'retry_later'],
  ] as const)('maps %i on %s to %s (%i, %s)', (code, endpoint, kind, status, action) => {
    const error = errorForPlatformCode(code, endpoint);
    expect(error).toBeInstanceOf(PlatformError);
    expect({ kind: error.kind, status: error.status, action: error.action, code: error.code }).toEqual({ kind, status, action, code });
  });

  it('never answers a server-side fault with 401', () => {
    for (const code of [40101, 40103, 40105, 41002, 50000, 99999]) {
      expect(errorForPlatformCode(code, 'E2').status).not.toBe(401);
    }
  });

  it('says what to fix for mixed environments and a Game ID mismatch', () => {
    expect(errorForPlatformCode(40105, 'E1').message).toContain('Live and Sandbox keys are not mixed');
    expect(errorForPlatformCode(41002, 'E2').message).toContain("the API token's service_id");
  });

  it('gives 503 answers a Retry-After', () => {
    expect(errorForPlatformCode(50000, 'E2').retryAfterSeconds).toBeGreaterThan(0);
    expect(errorForTransportFault('timeout', 'E2').retryAfterSeconds).toBeGreaterThan(0);
  });

  it('maps every transport fault to 503 retry_later', () => {
    for (const fault of ['timeout', 'network', 'http_status', 'bad_body', 'circuit_open', 'overloaded'] as const) {
      const error = errorForTransportFault(fault, 'E1', 'detail');
      expect([error.kind, error.status, error.action]).toEqual(['platform_unavailable', 503, 'retry_later']);
    }
  });

  it('serialises without a cause, a stack or anything beyond its own fields', () => {
    const error = errorForPlatformCode(40000, 'E2');
    expect(Object.keys(JSON.parse(JSON.stringify(error))).sort()).toEqual(
      ['action', 'code', 'kind', 'message', 'name', 'status', 'title'].sort(),
    );
    expect(error.cause).toBeUndefined();
    expect(inspect(error)).toContain('invalid_token');
  });
});
