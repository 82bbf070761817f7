import fc from 'fast-check';
import { parseAuthorization } from '../../lib/auth/authorization-header.js';
import { PlatformError } from '../../lib/errors/index.js';
import { DEMO } from '../support/app-harness.js';
import { jsonOf } from '../support/raw-http.js';
import { startReliabilityApp } from './support/reliability-app.js';
import type { ReliabilityApp } from './support/reliability-app.js';

// The header parser under random input: in isolation, and through the example
// app over a real socket, where the platform is called only for a well-formed
// bearer credential and verify only ever receives a b64token string.

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/='.split('');
const WELL_FORMED = /^[ \t]*bearer +[A-Za-z0-9\-._~+/]+=*[ \t]*$/i;
const B64TOKEN = /^[A-Za-z0-9\-._~+/]+=*$/;

describe('parseAuthorization properties', () => {
  it('never throws anything but a 400 invalid_request, and never returns a token with blanks', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary', maxLength: 120 }), fc.string({ unit: 'binary-ascii' }).map((s) => `Bearer ${s}`)), (value) => {
        try {
          const parsed = parseAuthorization(value);
          if (parsed.kind === 'bearer') {
            expect(parsed.token).not.toMatch(/[ \t]/);
            expect(parsed.token.length).toBeGreaterThan(0);
            expect(value.trim().slice(0, 6).toLowerCase()).toBe('bearer');
          }
        } catch (err) {
          expect(err).toBeInstanceOf(PlatformError);
          expect((err as PlatformError).status).toBe(400);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

describe('the example app under random Authorization bytes and request shapes', () => {
  let app: ReliabilityApp;
  let validTokens: string[];
  const verified: unknown[] = [];
  beforeAll(async () => {
    app = await startReliabilityApp();
    validTokens = Array.from({ length: 5 }, () => app.token(DEMO.player));
    const client = app.client as unknown as Record<string, (token: unknown) => Promise<unknown>>;
    for (const method of ['verifyUserToken', 'verifyWebToken']) {
      const original = client[method]!.bind(app.client);
      client[method] = (token: unknown) => {
        verified.push(token);
        return original(token);
      };
    }
  });
  afterAll(() => app.close());

  const headerBytes = fc.oneof(
    fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from(bytes)),
    fc.tuple(
      fc.mixedCase(fc.constantFrom('bearer', 'basic', 'bearerx', '')),
      fc.constantFrom(' ', '  ', '\t', '\xa0', ',', ''),
      fc.oneof(fc.string({ unit: fc.constantFrom(...B64), maxLength: 60 }), fc.string({ unit: 'binary-ascii', maxLength: 40 }), fc.nat({ max: 4 }).map((i) => `VALID${i}`)),
      fc.constantFrom('', ' ', '\t', ' x', ',x'),
    ).map(([scheme, gap, token, tail]) => Buffer.from(`${scheme}${gap}${token}${tail}`, 'latin1')),
    fc.tuple(
      fc.mixedCase(fc.constant('bearer')),
      fc.integer({ min: 1, max: 3 }),
      fc.oneof(fc.nat({ max: 4 }).map((i) => `VALID${i}`), fc.string({ unit: fc.constantFrom(...B64), minLength: 1, maxLength: 60 })),
    ).map(([scheme, spaces, token]) => Buffer.from(`${scheme}${' '.repeat(spaces)}${token}`, 'latin1')),
  );

  it('answers every header without a crash or a 5xx, and calls the platform only for a well-formed bearer credential', async () => {
    let calledFor = 0;
    await fc.assert(
      fc.asyncProperty(headerBytes, async (raw) => {
        const bytes = Buffer.from(raw.toString('latin1').replace(/VALID(\d)/g, (_m, i: string) => validTokens[Number(i)]!), 'latin1');
        app.emulator.clearRequests();
        const res = await app.send({ lines: [Buffer.concat([Buffer.from('Authorization: '), bytes])] });
        expect([200, 400, 401]).toContain(res.status);
        if (app.count('E2') > 0) {
          calledFor += 1;
          expect(bytes.toString('latin1')).toMatch(WELL_FORMED);
        }
        if (res.status === 200) expect(jsonOf(res)).toEqual({ member_no: DEMO.player, guid: DEMO.playerGuid });
      }),
      { numRuns: 250 },
    );
    expect(calledFor).toBeGreaterThan(5);
  });

  const tokenish = fc.oneof(fc.constantFrom('VALID0', 'abc', ''), fc.string({ maxLength: 12 }));
  const shape = fc.record({
    query: fc.array(fc.tuple(fc.constantFrom('access_token', 'access_token[]', 'access_token[a]', 'x'), tokenish), { maxLength: 3 }),
    body: fc.oneof(
      fc.constant(undefined),
      fc.record({ type: fc.constant('json'), value: fc.oneof(fc.jsonValue(), fc.record({ access_token: fc.jsonValue() })) }),
      fc.record({ type: fc.constant('form'), value: fc.array(fc.tuple(fc.constantFrom('access_token', 'access_token[x]', 'y'), tokenish), { maxLength: 3 }) }),
    ),
    header: fc.option(fc.constantFrom('Bearer VALID0', 'bearer   VALID0', 'Basic abc'), { nil: undefined }),
  });

  it('hands verify nothing but b64token strings, whatever the query, body and header', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async (s) => {
        const fill = (text: string): string => text.replace(/VALID0/g, validTokens[0]!);
        const query = new URLSearchParams(s.query.map(([k, v]): [string, string] => [k, fill(v)])).toString();
        const lines: string[] = s.header === undefined ? [] : [`Authorization: ${fill(s.header)}`];
        let body: string | undefined;
        if (s.body?.type === 'json') {
          lines.push('Content-Type: application/json');
          body = fill(JSON.stringify(s.body.value) ?? 'null');
        } else if (s.body?.type === 'form') {
          lines.push('Content-Type: application/x-www-form-urlencoded');
          body = new URLSearchParams(s.body.value.map(([k, v]): [string, string] => [k, fill(v)])).toString();
        }
        const res = await app.send({ path: `/api/me${query ? `?${query}` : ''}`, lines, ...(body === undefined ? {} : { body }) });
        expect(res.status).toBeLessThan(500);
      }),
      { numRuns: 200 },
    );
    expect(verified.length).toBeGreaterThan(5);
    for (const token of verified) {
      expect(typeof token).toBe('string');
      expect(token).toMatch(B64TOKEN);
    }
  });
});
