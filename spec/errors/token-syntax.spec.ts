import { PlatformClient } from '../../lib/client/index.js';
import { checkTokenSyntax, checkTokenSyntaxOnce, PlatformError } from '../../lib/errors/index.js';
import { extractBearerToken } from '../../lib/auth/extract-token.js';

function outcome(check: () => void): string {
  try {
    check();
    return 'valid';
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return `${err.status} ${err.kind}: ${err.description ?? ''}`;
  }
}

const TOKENS: [string, string][] = [
  ['a JWT-like token', 'eyJhbGciOi.J9-_~+/abc='], ['padding', 'abc=='], ['one character', 'a'], ['4096 characters', 'a'.repeat(4096)],
  ['4097 characters', 'a'.repeat(4097)], ['= inside', 'a=b'], ['a space', 'a b'], ['a comma', 'a,b'], ['a quote', 'a"b'],
  ['a percent', 'a%20b'], ['non-ASCII', 'tökén'], ['a zero-width space', 'a\u200bb'], ['CR/LF', 'abc\r\nX: 1'], ['null', 'null'],
  ['UNDEFINED', 'UNDEFINED'], ['nulls', 'nulls'], ['empty', ''], ['only padding', '='], ['tildes', '~~~'],
];

// A closed client checks the token's syntax before anything else, then refuses the call: its
// answer tells the client's verdict on the token without a platform.
const closedClient = new PlatformClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'id', clientSecret: 'secret', gameId: 'game' });
beforeAll(() => closedClient.close());

async function clientOutcome(token: string): Promise<string> {
  try {
    await closedClient.verifyUserToken(token);
    return 'answered';
  } catch (err) {
    if (!(err instanceof PlatformError)) throw err;
    return err.kind === 'platform_unavailable' ? 'valid' : `${err.status} ${err.kind}: ${err.description ?? ''}`;
  }
}

describe('one token syntax rule for the authenticator and the platform client', () => {
  it.each(TOKENS)('gives %s the same outcome from the request path and from the client', async (_name, token) => {
    const rule = outcome(() => checkTokenSyntax(token));
    expect(await clientOutcome(token)).toBe(rule);
    if (token === '') return;
    const fromHeader = outcome(() => extractBearerToken({ headers: { authorization: `Bearer ${token}` } }));
    expect(fromHeader === 'valid').toBe(rule === 'valid');
  });

  it('rejects non-strings', () => {
    for (const value of [undefined, null, 42, ['tok'], { token: 'x' }]) {
      expect(outcome(() => checkTokenSyntax(value))).toBe('401 invalid_token: the token must be a non-empty string');
    }
  });

  it('lets the client skip the scan of a token the authenticator has just checked, and only that one', () => {
    checkTokenSyntaxOnce('checked-token');
    expect(outcome(() => checkTokenSyntax('checked-token'))).toBe('valid');
    expect(() => checkTokenSyntaxOnce('bad token')).toThrow(PlatformError);
    expect(outcome(() => checkTokenSyntax('bad token'))).toMatch(/^401 invalid_token/);
  });
});
