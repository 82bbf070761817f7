import { extractBearerToken } from '../../lib/auth/extract-token.js';
import type { AuthRequest } from '../../lib/auth/types.js';
import type { PlatformError } from '../../lib/errors/index.js';
import { T, attempt, req, type Input, type Outcome } from '../support/http-auth-request.js';

describe('extractBearerToken: the Authorization header (the bad-input rows for header shapes)', () => {
  it.each<[string, Input, Outcome]>([
    ['1: no Authorization, no token anywhere', {}, 'bare'],
    ['2: an empty Authorization header', { auth: '' }, 'bare'],
    ['2: an Authorization header of spaces', { auth: '   ' }, 'bare'],
    ['3: Bearer alone', { auth: 'Bearer' }, 'IR'],
    ['3: bearer alone, lower case', { auth: 'bearer' }, 'IR'],
    ['3: Bearer with trailing spaces', { auth: 'Bearer    ' }, 'IR'],
    ['6: a tab after the scheme', { auth: `Bearer\t${T}` }, 'IR'],
    ['6: a NBSP after the scheme', { auth: `Bearer\u00a0${T}` }, 'IR'],
    ['6: UTF-8 NBSP bytes read as latin1', { auth: `Bearer\u00c2\u00a0${T}` }, 'IR'],
    ['6: extra parts', { auth: `Bearer ${T} extra` }, 'IR'],
    ['6: a tab inside', { auth: `Bearer ${T}\tx` }, 'IR'],
    ['6: two credentials in one header', { auth: 'Bearer a, Bearer b' }, 'IR'],
    ['6: two credentials without a space after the comma', { auth: 'Bearer a,Bearer b' }, 'IR'],
    ['6: a comma right after the scheme', { auth: 'Bearer,abc' }, 'IR'],
    ['6: no scheme at all', { auth: '"Bearer abc"' }, 'IR'],
    ['7: Basic', { auth: 'Basic dXNlcjpwYXNz' }, 'bare'],
    ['7: Basic alone', { auth: 'Basic' }, 'bare'],
    ['7: Basic of any shape', { auth: 'Basic a b, c\td' }, 'bare'],
    ['7: Bearerx', { auth: `Bearerx ${T}` }, 'bare'],
    ['7: Token', { auth: `Token ${T}` }, 'bare'],
    ['7: Digest', { auth: 'Digest username="a", realm="b"' }, 'bare'],
    ['7: a bare token with no scheme', { auth: T }, 'bare'],
    ['8: a comma', { auth: 'Bearer abc,def' }, 'IT'],
    ['8: a quote', { auth: 'Bearer abc"def' }, 'IT'],
    ['8: a percent sign', { auth: 'Bearer abc%20def' }, 'IT'],
    ['8: a semicolon', { auth: 'Bearer abc;def' }, 'IT'],
    ['8: angle brackets', { auth: 'Bearer <script>' }, 'IT'],
    ['8: non-ASCII', { auth: 'Bearer abcé' }, 'IT'],
    ['8: a zero-width space', { auth: 'Bearer abc\u200bdef' }, 'IT'],
    ['8: = not at the end', { auth: 'Bearer ab=cd' }, 'IT'],
    ['8: only =', { auth: 'Bearer ==' }, 'IT'],
    ['8: NBSP after the token', { auth: `Bearer ${T}\u00a0` }, 'IT'],
    ['9: 4097 characters', { auth: `Bearer ${'a'.repeat(4097)}` }, 'IT'],
    ['9: 10 000 characters', { auth: `Bearer ${'a'.repeat(10_000)}` }, 'IT'],
    ['12: two Authorization headers, bad then good', { auth: ['Bearer bad', `Bearer ${T}`] }, 'IR'],
    ['12: two Authorization headers, good then bad', { auth: [`Bearer ${T}`, 'Bearer bad'] }, 'IR'],
    ['12: two Authorization headers, empty then good', { auth: ['', `Bearer ${T}`] }, 'IR'],
    ['12: Basic and Bearer', { auth: ['Basic x', `Bearer ${T}`] }, 'IR'],
    ['13: Bearer undefined', { auth: 'Bearer undefined' }, 'IT'],
    ['13: Bearer null', { auth: 'Bearer null' }, 'IT'],
    ['13: Bearer NULL', { auth: 'Bearer NULL' }, 'IT'],
  ])('row %s', (_name, input, expected) => {
    expect(attempt(input)).toBe(expected);
  });

  it.each<[string, string]>([
    ['4: bearer in lower case', `bearer ${T}`],
    ['4: BEARER in upper case', `BEARER ${T}`],
    ['4: mixed case', `bEaReR ${T}`],
    ['5: two spaces', `Bearer  ${T}`],
    ['5: many spaces', `Bearer ${' '.repeat(20)}${T}`],
    ['5: surrounding spaces and tabs', ` \t Bearer ${T} \t `],
    ['8: padding at the end', 'Bearer abc=='],
    ['9: exactly 4096 characters', `Bearer ${'a'.repeat(4096)}`],
    ['20: a path-like token', 'Bearer ../../admin'],
  ])('row %s: verified as usual', (_name, auth) => {
    const result = extractBearerToken(req({ auth }));
    expect(result.source).toBe('header');
    expect(result.token).toBe(auth.trim().replace(/^bearer +/i, ''));
  });

  it('reads duplicates from headersDistinct when the request has it', () => {
    const request: AuthRequest = {
      headers: { authorization: `Bearer ${T}` },
      headersDistinct: { authorization: ['Bearer bad', `Bearer ${T}`] },
    };
    expect(() => extractBearerToken(request)).toThrow(expect.objectContaining({ status: 400, kind: 'invalid_request' }));
  });

  it('never echoes the token in the error', () => {
    const secret = 'Bearer s3cr3t,token';
    try {
      extractBearerToken(req({ auth: secret }));
      throw new Error('no error');
    } catch (err) {
      const e = err as PlatformError;
      expect(JSON.stringify([e.message, e.description, e.toJSON()])).not.toContain('s3cr3t');
    }
  });
});
