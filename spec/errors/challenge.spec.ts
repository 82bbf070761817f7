import { challengeFor, errorForPlatformCode, invalidRequest, malformedToken, missingCredentials, PlatformError } from '../../lib/errors/index.js';

describe('challengeFor: the RFC 6750 WWW-Authenticate value', () => {
  it('is a bare realm challenge when no credentials were sent', () => {
    expect(challengeFor(missingCredentials(), 'game')).toBe('Bearer realm="game"');
  });

  it('names invalid_request for a malformed request and invalid_token for a bad token', () => {
    expect(challengeFor(invalidRequest('two Authorization headers'))).toBe(
      'Bearer realm="game-platform", error="invalid_request", error_description="two Authorization headers"',
    );
    expect(challengeFor(errorForPlatformCode(40000, 'E2'))).toMatch(/^Bearer realm="game-platform", error="invalid_token"/);
  });

  it('drops quotes, backslashes and CR/LF from descriptions and the realm (no header injection)', () => {
    const value = challengeFor(malformedToken('bad "x"\\\r\nSet-Cookie: a=b'), 're"al\nm');
    expect(value).toBe('Bearer realm="realm", error="invalid_token", error_description="bad xSet-Cookie: a=b"');
    expect(value).not.toMatch(/[\r\n]/);
  });

  it('has no challenge for 403, 5xx, or a bad member lookup (not a credentials problem)', () => {
    expect(challengeFor(errorForPlatformCode(46217, 'E2'))).toBeUndefined();
    expect(challengeFor(errorForPlatformCode(50000, 'E2'))).toBeUndefined();
    expect(challengeFor(errorForPlatformCode(40105, 'E1'))).toBeUndefined();
    expect(challengeFor(errorForPlatformCode(40000, 'E3'))).toBeUndefined();
    expect(challengeFor(new PlatformError({ kind: 'invalid_request', message: 'bad query', action: 'none' }))).toBeUndefined();
  });
});
