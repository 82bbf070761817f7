import fc from 'fast-check';
import { isLosslessNumber, parse as losslessParse } from 'lossless-json';
import { isPlatformError, PlatformClient } from '../../lib/index.js';
import { errorForPlatformCode } from '../../lib/errors/index.js';
import { BadBody, parsePlatformBody } from '../../lib/platform-call/index.js';
import { DEMO } from '../support/client-harness.js';
import { sendJsonText, startRawServer } from '../support/client-raw-server.js';
import type { RawServer } from '../support/client-raw-server.js';

// The platform-response parser under random input: it never throws, and the
// body's integer `code` always decides, whatever the HTTP status.

const KNOWN_CODES = [0, 40000, 40101, 40103, 40105, 41002, 46217, 50000];
const code = fc.oneof(fc.constantFrom(...KNOWN_CODES), fc.integer({ min: -1_000_000, max: 2_000_000_000 }));

describe('parsePlatformBody properties', () => {
  it('never throws: any text is a bad body or a body with an integer code', () => {
    const text = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.json(),
      fc.json().map((j) => j.slice(0, Math.floor(j.length / 2))),
      fc.jsonValue().map((v) => JSON.stringify({ code: v })),
    );
    fc.assert(
      fc.property(fc.oneof(text, fc.anything()), (input) => {
        const parsed = parsePlatformBody(input);
        if (!(parsed instanceof BadBody)) {
          expect(Number.isInteger(parsed.code)).toBe(true);
          expect(typeof parsed.fields).toBe('object');
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('reads the code of any JSON object whatever else it holds (__proto__, huge numbers, nesting)', () => {
    const extra = fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), fc.constantFrom('__proto__', 'constructor', 'value', 'message')), fc.jsonValue({ maxDepth: 3 }));
    fc.assert(
      fc.property(extra, code, fc.boolean(), (fields, c, codeFirst) => {
        const rest = JSON.stringify(fields).slice(1, -1);
        const text = codeFirst ? `{"code":${c}${rest ? `,${rest}` : ''}}` : `{${rest ? `${rest},` : ''}"code":${c}}`;
        if (Object.keys(fields).includes('code')) return;
        const parsed = parsePlatformBody(text);
        expect(parsed).not.toBeInstanceOf(BadBody);
        expect((parsed as { code: number }).code).toBe(c);
      }),
      { numRuns: 1000 },
    );
  });
});

// Every number as the digits it was sent with: a parser's choice of representation aside.
function sourceForm(value: unknown): unknown {
  if (isLosslessNumber(value)) return `#${value.value}`;
  if (typeof value === 'number') return `#${String(value)}`;
  if (Array.isArray(value)) return value.map(sourceForm);
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, sourceForm(v)]));
  return value;
}

describe('parsePlatformBody reads exactly what lossless-json reads', () => {
  it('for any JSON object: the same keys, strings and number digits, or both refuse it', () => {
    const number = fc.oneof(
      fc.integer({ min: 0, max: 999_999_999_999_999 }).map(String),
      fc.bigInt({ min: 0n, max: 10n ** 30n }).map(String),
      fc.constantFrom('-1', '-0', '1.5', '1e5', '2E3', '0.000', '9007199254740993', '1234567890123456'),
    );
    const scalar = fc.oneof(number, fc.string({ maxLength: 6 }).map((t) => JSON.stringify(t)), fc.constantFrom('true', 'false', 'null'));
    const key = fc.oneof(fc.constantFrom('code', 'value', 'member_no', 'guid', 'a"b', 'e', 'x:y', '\\'), fc.string({ maxLength: 4 }));
    const member = fc.tuple(key, scalar).map(([k, v]) => `${JSON.stringify(k)} : ${v}`);
    const object = fc.array(member, { maxLength: 5 }).map((members) => `{${members.join(',')}}`);
    const text = fc.tuple(fc.array(member, { maxLength: 6 }), object, fc.boolean()).map(([members, inner, nest]) => {
      const all = nest ? [...members, `"nested":[${inner},${inner}]`] : members;
      return `{"code":0${all.length > 0 ? `,${all.join(',')}` : ''}}`;
    });
    fc.assert(
      fc.property(text, (input) => {
        let expected: unknown;
        try {
          expected = sourceForm(losslessParse(input));
        } catch {
          expected = 'refused';
        }
        const parsed = parsePlatformBody(input);
        const actual = parsed instanceof BadBody ? (parsed.reason === 'not JSON' ? 'refused' : parsed.reason) : sourceForm(parsed.fields);
        expect(actual).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the code decides, over HTTP, whatever the status', () => {
  let server: RawServer;
  let reply: { status: number; body: string } = { status: 200, body: '' };
  beforeAll(async () => {
    server = await startRawServer((req, res) => {
      if (req.url.startsWith('/auth/')) {
        sendJsonText(res, 200, '{"code":0,"message":"success","response_data":{"access_token":"api-token-abc","expires_in":2592000}}');
      } else {
        sendJsonText(res, reply.status, reply.body);
      }
    });
  });
  afterAll(() => server.close());

  // 1xx, 204, 205 and 304 carry no body.
  const status = fc.integer({ min: 200, max: 599 }).filter((s) => ![204, 205, 304].includes(s));

  it('answers what errorForPlatformCode says for the code, or the member for 0', async () => {
    await fc.assert(
      fc.asyncProperty(status, code, fc.boolean(), async (s, c, asString) => {
        const value = asString ? '{"member_no":"20005061986","guid":"9007199254740993"}' : '{"member_no":20005061986,"guid":9007199254740993}';
        reply = { status: s, body: `{"message":"whatever","code":${c},"value":${value}}` };
        const client = new PlatformClient({
          baseUrl: server.url, clientId: DEMO.clientId, clientSecret: DEMO.clientSecret, gameId: DEMO.gameId,
          retries: 0, timeoutMs: 2000, circuitBreaker: false,
        });
        try {
          const outcome = await client.verifyUserToken('user-token-xyz').then((user) => user, (error: unknown) => error);
          if (c === 0) {
            expect(outcome).toEqual({ memberNo: '20005061986', guid: '9007199254740993' });
          } else {
            const expected = errorForPlatformCode(c, 'E2');
            expect(isPlatformError(outcome)).toBe(true);
            expect(outcome).toMatchObject({ kind: expected.kind, status: expected.status, code: c });
          }
        } finally {
          void client.close();
        }
      }),
      { numRuns: 80 },
    );
  });
});
