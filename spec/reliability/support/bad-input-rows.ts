import type { RawSpec } from '../../support/raw-http.js';

/**
 * How the app must answer (one row per bad input):
 * `bare` 401 with a bare challenge, `IR` 400 invalid_request, `IT` 401
 * invalid_token, `IT40000` the same after the platform said 40000, `verified`
 * 200, `node400`/`node431` Node's own answer, `body400`/`body413` a
 * problem+json body error, `preflight` an unauthenticated OPTIONS answer.
 */
export type Answer = 'bare' | 'IR' | 'IT' | 'IT40000' | 'verified' | 'node400' | 'node431' | 'body400' | 'body413' | 'preflight';

export interface BadInputRow {
  row: number;
  name: string;
  /** The request, given a valid user token of the demo player. */
  request: (token: string) => RawSpec;
  answer: Answer;
  /** E2 calls the emulator must see. */
  e2: 0 | 1;
}

const auth = (value: string | Buffer): RawSpec => ({ lines: [Buffer.isBuffer(value) ? Buffer.concat([Buffer.from('Authorization: '), value]) : `Authorization: ${value}`] });
const utf8 = (text: string): Buffer => Buffer.from(text, 'utf8');
const form = 'Content-Type: application/x-www-form-urlencoded';
const json = 'Content-Type: application/json';
const multipart = (token: string, header?: string): RawSpec => ({
  lines: [...(header === undefined ? [] : [`Authorization: Bearer ${header}`]), 'Content-Type: multipart/form-data; boundary=XyZ'],
  body: `--XyZ\r\nContent-Disposition: form-data; name="access_token"\r\n\r\n${token}\r\n--XyZ--\r\n`,
});
const row = (n: number, answer: Answer, e2: 0 | 1, cases: Array<[string, (t: string) => RawSpec]>): BadInputRow[] =>
  cases.map(([name, request]) => ({ row: n, name, request, answer, e2 }));

/** Every row of the bad-input table, each in several shapes. */
export const BAD_INPUT_ROWS: BadInputRow[] = [
  ...row(1, 'bare', 0, [['no Authorization, no token anywhere', () => ({})]]),
  ...row(2, 'bare', 0, [
    ['an empty Authorization', () => ({ lines: ['Authorization:'] })],
    ['an Authorization of spaces only', () => ({ lines: ['Authorization:    '] })],
  ]),
  ...row(3, 'IR', 0, [
    ['Bearer alone', () => auth('Bearer')],
    ['Bearer with trailing spaces', () => auth('Bearer    ')],
  ]),
  ...row(4, 'verified', 1, [
    ['bearer in lower case', (t) => auth(`bearer ${t}`)],
    ['BEARER in upper case', (t) => auth(`BEARER ${t}`)],
    ['bEaReR in mixed case', (t) => auth(`bEaReR ${t}`)],
  ]),
  ...row(5, 'verified', 1, [
    ['two spaces after the scheme', (t) => auth(`Bearer  ${t}`)],
    ['surrounding spaces', (t) => auth(`   Bearer ${t}   `)],
    ['surrounding tabs', (t) => auth(`\tBearer ${t}\t`)],
  ]),
  ...row(6, 'IR', 0, [
    ['a tab after the scheme', (t) => auth(`Bearer\t${t}`)],
    ['a latin-1 NBSP byte after the scheme', (t) => auth(Buffer.from(`Bearer\xa0${t}`, 'latin1'))],
    ['a UTF-8 NBSP after the scheme', (t) => auth(utf8(`Bearer\u00a0${t}`))],
    ['an extra part after the token', (t) => auth(`Bearer ${t} extra`)],
    ['two credentials in one header', (t) => auth(`Bearer ${t}, Bearer ${t}`)],
  ]),
  ...row(7, 'bare', 0, [
    ['Basic credentials', () => auth('Basic dXNlcjpwYXNz')],
    ['Basic alone', () => auth('Basic')],
    ['Basic with a valid user token', (t) => auth(`Basic ${t}`)],
    ['Digest parameters', () => auth('Digest username="a", realm="b", nonce="c"')],
    ['Bearerx', (t) => auth(`Bearerx ${t}`)],
    ['Token', (t) => auth(`Token ${t}`)],
  ]),
  ...row(8, 'IT', 0, [
    ['a comma in the token', (t) => auth(`Bearer ${t},x`)],
    ['a double quote in the token', (t) => auth(`Bearer "${t}"`)],
    ['a percent sign in the token', (t) => auth(`Bearer ${t}%20`)],
    ['a semicolon in the token', (t) => auth(`Bearer ${t};`)],
    ['angle brackets in the token', () => auth('Bearer <script>')],
    ['a non-ASCII letter in the token', (t) => auth(utf8(`Bearer ${t}\u00e9`))],
    ['a zero-width space in the token', (t) => auth(utf8(`Bearer ${t}\u200b`))],
    ['= not at the end', () => auth('Bearer ab=cd')],
  ]),
  ...row(9, 'IT', 0, [['a token of 4097 characters', () => auth(`Bearer ${'a'.repeat(4097)}`)]]),
  ...row(9, 'IT40000', 1, [['a token of exactly 4096 characters is sent to the platform', () => auth(`Bearer ${'a'.repeat(4096)}`)]]),
  ...row(10, 'node431', 0, [['a header over 16 KiB', () => auth(`Bearer ${'a'.repeat(17_000)}`)]]),
  ...row(11, 'node400', 0, [
    ['a NUL byte in the header', (t) => auth(`Bearer ${t}\0x`)],
    ['a control character in the header', (t) => auth(`Bearer ${t}\x01x`)],
    ['a bare CR in the header', (t) => auth(`Bearer ${t}\rx`)],
  ]),
  ...row(12, 'IR', 0, [
    ['two Authorization headers, bad then good', (t) => ({ lines: ['Authorization: Bearer bad', `Authorization: Bearer ${t}`] })],
    ['two Authorization headers, good then bad', (t) => ({ lines: [`Authorization: Bearer ${t}`, 'Authorization: Bearer bad'] })],
    ['the same Authorization twice', (t) => ({ lines: [`Authorization: Bearer ${t}`, `Authorization: Bearer ${t}`] })],
    ['two Authorization headers in different cases', (t) => ({ lines: [`authorization: Bearer ${t}`, `AUTHORIZATION: Bearer ${t}`] })],
  ]),
  ...row(13, 'IT', 0, [
    ['Bearer undefined', () => auth('Bearer undefined')],
    ['Bearer null', () => auth('Bearer null')],
    ['Bearer UNDEFINED', () => auth('Bearer UNDEFINED')],
  ]),
  ...row(14, 'IR', 0, [['access_token in the query', (t) => ({ path: `/api/me?access_token=${t}` })]]),
  ...row(15, 'IR', 0, [
    ['a repeated query parameter', (t) => ({ path: `/api/me?access_token=${t}&access_token=${t}` })],
    ['a nested query parameter', () => ({ path: '/api/me?access_token[a]=1' })],
    ['an array query parameter', (t) => ({ path: `/api/me?access_token[]=${t}` })],
  ]),
  ...row(16, 'IR', 0, [
    ['a header token and a query token', (t) => ({ path: `/api/me?access_token=${t}`, lines: [`Authorization: Bearer ${t}`] })],
    ['a header token and a form token', (t) => ({ lines: [`Authorization: Bearer ${t}`, form], body: `access_token=${t}` })],
  ]),
  ...row(17, 'IR', 0, [
    ['a form body token on GET', (t) => ({ lines: [form], body: `access_token=${t}` })],
  ]),
  // The example app parses no multipart body, so a multipart token is never
  // seen, let alone verified: no credentials (401 bare), or the header's token
  // alone. The 400 of the table is what extractBearerToken answers when an
  // app's multipart parser exposes the field (spec/auth).
  ...row(17, 'bare', 0, [['a multipart body token on GET (not parsed by the app)', (t) => multipart(t)]]),
  ...row(17, 'verified', 1, [['a multipart body token beside a header token (only the header counts)', (t) => multipart(t, t)]]),
  ...row(18, 'bare', 0, [
    ['a JSON body access_token string', (t) => ({ lines: [json], body: JSON.stringify({ access_token: t }) })],
    ['a JSON body access_token number', () => ({ lines: [json], body: '{"access_token":12345}' })],
    ['a JSON body access_token array', (t) => ({ lines: [json], body: JSON.stringify({ access_token: [t, t] }) })],
    ['a JSON body access_token object', (t) => ({ lines: [json], body: JSON.stringify({ access_token: { token: t } }) })],
    ['a JSON body access_token true', () => ({ lines: [json], body: '{"access_token":true}' })],
    ['a JSON body access_token under __proto__', (t) => ({ lines: [json], body: `{"__proto__":{"access_token":"${t}"}}` })],
  ]),
  ...row(19, 'body400', 0, [['a malformed JSON body', (t) => ({ lines: [json], body: `{"access_token":"${t}",` })]]),
  ...row(19, 'body413', 0, [['a 1 MB JSON body', () => ({ lines: [json], body: JSON.stringify({ pad: 'x'.repeat(1_000_000) }) })]]),
  ...row(20, 'IT40000', 1, [['a path-like token', () => auth('Bearer ../../admin')]]),
  ...row(21, 'preflight', 0, [
    ['an OPTIONS preflight without credentials', () => ({ method: 'OPTIONS', lines: ['Origin: http://game.example', 'Access-Control-Request-Method: GET'] })],
  ]),
];
