import fc from 'fast-check';
import { extractBearerToken } from '../../lib/auth/extract-token.js';
import { createAuthenticator } from '../../lib/auth/authenticate.js';
import type { AuthRequest } from '../../lib/auth/types.js';
import { PlatformError } from '../../lib/errors/index.js';

const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;
const B64_CHARS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/'.split('');

const headerText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ maxLength: 80 }).map((s) => `Bearer ${s}`),
  fc.tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'Basic', 'Bearerx', ''), fc.constantFrom(' ', '  ', '\t', '\u00a0', ',', ''), fc.string({ unit: 'binary-ascii', maxLength: 40 }))
    .map(([a, b, c]) => a + b + c),
);

const requestArb = fc.record({
  method: fc.constantFrom('GET', 'POST', 'HEAD', 'OPTIONS', 'PUT', undefined),
  auth: fc.option(fc.array(headerText, { minLength: 1, maxLength: 3 }), { nil: undefined }),
  url: fc.option(fc.oneof(fc.string({ maxLength: 60 }).map((s) => `/x?${s}`), fc.webUrl({ withQueryParameters: true }).map((u) => u.replace(/^https?:\/\/[^/]+/, ''))), { nil: undefined }),
  contentType: fc.constantFrom('application/x-www-form-urlencoded', 'multipart/form-data', 'application/json', undefined),
  body: fc.oneof(fc.anything(), fc.record({ access_token: fc.anything() }), fc.dictionary(fc.constantFrom('access_token', 'access_token[a]', 'x'), fc.anything())),
  query: fc.anything(),
  cookie: fc.option(fc.string({ maxLength: 60 }).map((s) => `SUAT=${s}`), { nil: undefined }),
  sources: fc.record({ query: fc.boolean(), body: fc.boolean(), cookie: fc.constantFrom('SUAT', undefined) }),
});

type Generated = typeof requestArb extends fc.Arbitrary<infer T> ? T : never;

function toRequest(g: Generated): AuthRequest {
  const rawHeaders: string[] = [];
  for (const value of g.auth ?? []) rawHeaders.push('Authorization', value);
  const headers: AuthRequest['headers'] = {};
  if (g.auth?.[0] !== undefined) headers.authorization = g.auth[0];
  if (g.contentType !== undefined) headers['content-type'] = g.contentType;
  if (g.cookie !== undefined) headers.cookie = g.cookie;
  return { method: g.method, url: g.url, headers, rawHeaders, body: g.body, query: g.query };
}

describe('extractBearerToken properties', () => {
  it('never crashes: returns a b64token of at most 4096 characters or throws a 400/401 PlatformError', () => {
    fc.assert(
      fc.property(requestArb, (g) => {
        try {
          const { token } = extractBearerToken(toRequest(g), g.sources);
          expect(typeof token).toBe('string');
          expect(token).toMatch(B64TOKEN);
          expect(token.length).toBeLessThanOrEqual(4096);
        } catch (err) {
          expect(err).toBeInstanceOf(PlatformError);
          expect([400, 401]).toContain((err as PlatformError).status);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('accepts any b64token after a bearer scheme of any case and one or more spaces', () => {
    const token = fc
      .tuple(fc.string({ unit: fc.constantFrom(...B64_CHARS), minLength: 1, maxLength: 300 }), fc.nat({ max: 2 }))
      .map(([body, pad]) => body + '='.repeat(pad))
      .filter((t) => !['undefined', 'null'].includes(t.toLowerCase()));
    const scheme = fc.mixedCase(fc.constant('bearer'));
    fc.assert(
      fc.property(scheme, fc.integer({ min: 1, max: 8 }), token, (s, spaces, t) => {
        expect(extractBearerToken({ headers: { authorization: `${s}${' '.repeat(spaces)}${t}` } })).toEqual({ token: t, source: 'header' });
      }),
    );
  });

  it('never hands the verifier anything but a b64token string', async () => {
    const seen: unknown[] = [];
    const verify = async (token: unknown) => {
      seen.push(token);
      return { memberNo: '1', guid: null };
    };
    const authenticate = createAuthenticator({ client: { verifyUserToken: verify, verifyWebToken: verify }, tokenFrom: { query: true, body: true, cookie: 'SUAT' } });
    await fc.assert(
      fc.asyncProperty(requestArb, async (g) => {
        await authenticate(toRequest(g)).catch((err: unknown) => expect(err).toBeInstanceOf(PlatformError));
      }),
      { numRuns: 1000 },
    );
    expect(seen.length).toBeGreaterThan(10);
    for (const token of seen) {
      expect(typeof token).toBe('string');
      expect(token).toMatch(B64TOKEN);
    }
  });
});
