import { extractBearerToken } from '../../lib/auth/extract-token.js';
import type { TokenSources } from '../../lib/auth/types.js';
import { T, attempt, type Input, type Outcome } from '../support/http-auth-request.js';

describe('extractBearerToken: query and body (the bad-input rows for query and body tokens)', () => {
  const form = 'application/x-www-form-urlencoded';
  it.each<[string, Input, TokenSources, Outcome]>([
    ['14: ?access_token= while query tokens are off', { url: `/x?access_token=${T}` }, {}, 'IR'],
    ['14: an empty ?access_token= while off', { url: '/x?access_token=' }, {}, 'IR'],
    ['14: an encoded parameter name while off', { url: '/x?access%5Ftoken=abc' }, {}, 'IR'],
    ['14: an empty ?access_token= while on', { url: '/x?access_token=' }, { query: true }, 'IR'],
    ['15: a repeated parameter', { url: '/x?access_token=a&access_token=b' }, { query: true }, 'IR'],
    ['15: a nested parameter', { url: '/x?access_token[a]=1' }, { query: true }, 'IR'],
    ['15: an array parameter', { url: '/x?access_token[]=a' }, { query: true }, 'IR'],
    ['15: a dotted parameter', { url: '/x?access_token.a=1' }, { query: true }, 'IR'],
    ['15: plain and nested together', { url: '/x?access_token=a&access_token[b]=c' }, { query: true }, 'IR'],
    ['16: header plus query', { auth: `Bearer ${T}`, url: '/x?access_token=abc' }, { query: true }, 'IR'],
    ['16: header plus form body', { auth: `Bearer ${T}`, method: 'POST', contentType: form, body: { access_token: 'abc' } }, { body: true }, 'IR'],
    ['16: query plus form body', { url: '/x?access_token=abc', method: 'POST', contentType: form, body: { access_token: 'abc' } }, { query: true, body: true }, 'IR'],
    ['17: a form body token while body tokens are off', { method: 'POST', contentType: form, body: { access_token: 'abc' } }, {}, 'IR'],
    ['17: a form body token on GET', { method: 'GET', contentType: form, body: { access_token: 'abc' } }, { body: true }, 'IR'],
    ['17: a form body token on HEAD', { method: 'HEAD', contentType: form, body: { access_token: 'abc' } }, { body: true }, 'IR'],
    ['17: a multipart token', { method: 'POST', contentType: 'multipart/form-data; boundary=x', body: { access_token: 'abc' } }, { body: true }, 'IR'],
    ['17: a repeated form token (array)', { method: 'POST', contentType: form, body: { access_token: ['a', 'b'] } }, { body: true }, 'IR'],
    ['17: a nested form token (qs object)', { method: 'POST', contentType: form, body: { access_token: { a: '1' } } }, { body: true }, 'IR'],
    ['17: a nested form token (flat key)', { method: 'POST', contentType: form, body: { 'access_token[a]': '1' } }, { body: true }, 'IR'],
    ['17: an empty form token', { method: 'POST', contentType: form, body: { access_token: '' } }, { body: true }, 'IR'],
    ['8: a query token with bad characters', { url: '/x?access_token=a%3Cb' }, { query: true }, 'IT'],
  ])('row %s', (_name, input, sources, expected) => {
    expect(attempt(input, sources)).toBe(expected);
  });

  it('accepts a query token when enabled', () => {
    expect(attempt({ url: `/x?a=1&access_token=${encodeURIComponent(T)}` }, { query: true })).toEqual({ token: T, source: 'query' });
  });

  it('accepts a form token on POST when enabled', () => {
    expect(attempt({ method: 'POST', contentType: `${form}; charset=utf-8`, body: { access_token: T } }, { body: true })).toEqual({ token: T, source: 'body' });
  });

  it('falls back to the parsed query when the request has no URL', () => {
    const base = { headers: {}, method: 'GET' };
    expect(() => extractBearerToken({ ...base, query: { access_token: ['a', 'b'] } }, { query: true })).toThrow(expect.objectContaining({ status: 400 }));
    expect(extractBearerToken({ ...base, query: { access_token: 'abc' } }, { query: true })).toEqual({ token: 'abc', source: 'query' });
  });

  describe('row 18: a JSON body access_token is never a credential', () => {
    const bodies: [string, unknown][] = [
      ['a string', { access_token: T }],
      ['a number', { access_token: 12345 }],
      ['an array', { access_token: [T, T] }],
      ['an object', { access_token: { $ne: null } }],
      ['true', { access_token: true }],
      ['under __proto__', JSON.parse(`{"__proto__":{"access_token":"${T}"}}`)],
    ];
    it.each(bodies)('%s: 401 bare without a header', (_name, body) => {
      for (const sources of [{}, { body: true, query: true }]) {
        expect(attempt({ method: 'POST', contentType: 'application/json', body }, sources)).toBe('bare');
      }
    });
    it.each(bodies)('%s: the header token is used', (_name, body) => {
      expect(attempt({ auth: `Bearer ${T}`, method: 'POST', contentType: 'application/json', body }, { body: true })).toEqual({ token: T, source: 'header' });
    });
    it('ignores an access_token in a body of no declared type', () => {
      expect(attempt({ method: 'POST', body: { access_token: T } }, { body: true })).toBe('bare');
    });
  });
});

describe('extractBearerToken: the web token cookie', () => {
  const cookie: TokenSources = { cookie: 'SUAT' };
  it.each<[string, Input, TokenSources, Outcome | { token: string; source: string }]>([
    ['reads the named cookie', { cookie: `a=1; SUAT=${T}; b=2` }, cookie, { token: T, source: 'cookie' }],
    ['unquotes a quoted value', { cookie: `SUAT="${T}"` }, cookie, { token: T, source: 'cookie' }],
    ['ignores cookies when not enabled', { cookie: `SUAT=${T}` }, {}, 'bare'],
    ['names are case-sensitive', { cookie: `suat=${T}` }, cookie, 'bare'],
    ['an empty cookie counts as none', { cookie: 'SUAT=' }, cookie, 'bare'],
    ['prefers the Authorization header', { auth: 'Bearer hdr', cookie: `SUAT=${T}` }, cookie, { token: 'hdr', source: 'header' }],
    ['two equal cookies are one', { cookie: `SUAT=${T}; SUAT=${T}` }, cookie, { token: T, source: 'cookie' }],
    ['two different cookies are ambiguous', { cookie: `SUAT=${T}; SUAT=other` }, cookie, 'IR'],
    ['a cookie with bad characters', { cookie: 'SUAT=a%3Cb' }, cookie, 'IT'],
    ['a cookie with a broken escape', { cookie: 'SUAT=a%zz' }, cookie, 'IT'],
    ['another scheme plus a cookie uses the cookie', { auth: 'Basic x', cookie: `SUAT=${T}` }, cookie, { token: T, source: 'cookie' }],
    ['a malformed header is not rescued by the cookie', { auth: 'Bearer', cookie: `SUAT=${T}` }, cookie, 'IR'],
  ])('%s', (_name, input, sources, expected) => {
    const result = attempt(input, sources);
    if (typeof expected === 'string') expect(result).toBe(expected);
    else expect(result).toEqual(expected);
  });

  it('reads req.cookies when there is no Cookie header', () => {
    expect(extractBearerToken({ headers: {}, cookies: { SUAT: T } }, cookie)).toEqual({ token: T, source: 'cookie' });
    expect(() => extractBearerToken({ headers: {}, cookies: { SUAT: ['a'] } }, cookie)).toThrow(expect.objectContaining({ status: 401 }));
  });
});
