import { jest } from '@jest/globals';
import { accessDenied } from '../../lib/auth/access-denied.js';
import { authenticateRequest, createAuthenticator } from '../../lib/auth/authenticate.js';
import type { AuthRequest, UserTokenVerifier } from '../../lib/auth/types.js';
import { PlatformError, errorForPlatformCode } from '../../lib/errors/index.js';
import type { GameUser, Logger } from '../../lib/types.js';

const USER: GameUser = { memberNo: '20005061986', guid: '200000000397' };

function fakeClient(overrides: Partial<Record<'verifyUserToken' | 'verifyWebToken', (token: string) => Promise<GameUser>>> = {}) {
  return {
    verifyUserToken: jest.fn(overrides.verifyUserToken ?? (async () => USER)),
    verifyWebToken: jest.fn(overrides.verifyWebToken ?? (async () => ({ ...USER, guid: null }))),
  };
}

function spyLogger() {
  return { debug: jest.fn(), info: jest.fn(), warn: jest.fn(), error: jest.fn() } satisfies Logger;
}

const bearer = (token: string): AuthRequest => ({ method: 'GET', url: '/api/me', headers: { authorization: `Bearer ${token}` } });

describe('authenticateRequest', () => {
  it('verifies a header token with verifyUserToken and returns the player', async () => {
    const client = fakeClient();
    await expect(authenticateRequest(bearer('tok'), { client })).resolves.toEqual(USER);
    expect(client.verifyUserToken).toHaveBeenCalledWith('tok');
    expect(client.verifyWebToken).not.toHaveBeenCalled();
  });

  it('verifies a cookie token with verifyWebToken', async () => {
    const client = fakeClient();
    const req: AuthRequest = { method: 'GET', url: '/event', headers: { cookie: 'SUAT=web.jwt.sig' } };
    await expect(authenticateRequest(req, { client, tokenFrom: { cookie: 'SUAT' } })).resolves.toEqual({ ...USER, guid: null });
    expect(client.verifyWebToken).toHaveBeenCalledWith('web.jwt.sig');
    expect(client.verifyUserToken).not.toHaveBeenCalled();
  });

  it('keeps the outage grace\'s mark on the player, with or without mapUser', async () => {
    const client = fakeClient({ verifyUserToken: async () => ({ ...USER, servedInGrace: true }) });
    await expect(authenticateRequest(bearer('tok'), { client })).resolves.toEqual({ ...USER, servedInGrace: true });
    const mapped = createAuthenticator({ client, mapUser: async () => ({ role: 'player' }) });
    await expect(mapped(bearer('tok'))).resolves.toEqual({ ...USER, role: 'player', servedInGrace: true });
    // A normal answer carries no mark.
    await expect(authenticateRequest(bearer('tok'), { client: fakeClient() })).resolves.toEqual(USER);
  });

  it('keeps the verifier bound to the client', async () => {
    const client = { seen: [] as string[], async verifyUserToken(this: { seen: string[] }, token: string) { this.seen.push(token); return USER; } };
    await authenticateRequest(bearer('tok'), { client });
    expect(client.seen).toEqual(['tok']);
  });

  it('rejects a malformed request without calling the platform', async () => {
    const client = fakeClient();
    await expect(authenticateRequest({ headers: { authorization: 'Bearer a b' } }, { client })).rejects.toMatchObject({ status: 400 });
    await expect(authenticateRequest({ headers: {} }, { client })).rejects.toMatchObject({ status: 401, kind: 'missing_credentials' });
    expect(client.verifyUserToken).not.toHaveBeenCalled();
  });

  it.each([40000, 46217, 40105, 41002, 50000])('passes the client\'s PlatformError for %i through unchanged', async (code) => {
    const error = errorForPlatformCode(code, 'E2');
    const client = fakeClient({ verifyUserToken: async () => { throw error; } });
    await expect(authenticateRequest(bearer('tok'), { client })).rejects.toBe(error);
  });

  it('turns a non-PlatformError from the client into a generic 500 and logs it', async () => {
    const logger = spyLogger();
    const client = fakeClient({ verifyUserToken: async () => { throw new Error('socket said s3cret'); } });
    const err = await authenticateRequest(bearer('tok'), { client, logger }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ status: 500, action: 'contact_support' });
    expect(JSON.stringify([(err as Error).message, err])).not.toContain('s3cret');
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('answers 500 when the verifier returns something that is not a GameUser', async () => {
    const client = fakeClient({ verifyUserToken: async () => ({ memberNo: 123 }) as unknown as GameUser });
    await expect(authenticateRequest(bearer('tok'), { client, logger: spyLogger() })).rejects.toMatchObject({ status: 500 });
  });
});

describe('mapUser and authorize hooks', () => {
  it('merges mapUser\'s result into the user; the platform identifiers win', async () => {
    const authenticate = createAuthenticator({
      client: fakeClient(),
      mapUser: async (user, req) => ({ role: 'admin', memberNo: 'forged', path: req.url }),
    });
    await expect(authenticate(bearer('tok'))).resolves.toEqual({ ...USER, role: 'admin', path: '/api/me' });
  });

  it('gives authorize the mapped user; false answers 403 access_denied', async () => {
    const authorize = jest.fn((user: GameUser & { role: string }) => user.role === 'admin');
    const authenticate = createAuthenticator({ client: fakeClient(), mapUser: () => ({ role: 'player' }), authorize });
    await expect(authenticate(bearer('tok'))).rejects.toMatchObject({ status: 403, kind: 'access_denied', action: 'denied', code: undefined });
    expect(authorize).toHaveBeenCalledWith({ ...USER, role: 'player' }, expect.anything());
  });

  it('lets authorize deny with the app\'s own code', async () => {
    const authenticate = createAuthenticator({
      client: fakeClient(),
      authorize: async () => { throw accessDenied({ code: 9001, detail: 'Account suspended.' }); },
    });
    await expect(authenticate(bearer('tok'))).rejects.toMatchObject({ status: 403, code: 9001, action: 'denied', message: 'Account suspended.' });
  });

  it.each([true, undefined])('lets the player through when authorize returns %p', async (answer) => {
    const authenticate = createAuthenticator({ client: fakeClient(), authorize: () => answer });
    await expect(authenticate(bearer('tok'))).resolves.toEqual(USER);
  });

  it.each(['mapUser', 'authorize'] as const)('turns an unexpected %s error into a 500 without its text, and logs it', async (hook) => {
    const logger = spyLogger();
    const boom = () => { throw new Error('db password is hunter2'); };
    const authenticate = createAuthenticator({ client: fakeClient(), logger, [hook]: boom });
    const err = (await authenticate(bearer('tok')).catch((e: unknown) => e)) as PlatformError;
    expect(err).toMatchObject({ status: 500, kind: 'configuration' });
    expect(err.message).not.toContain('hunter2');
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ stage: `${hook} hook`, errorMessage: 'db password is hunter2' }), expect.any(String));
  });
});

describe('options are checked once, with messages naming the option', () => {
  const verifier: UserTokenVerifier = { verifyUserToken: async () => USER };
  it.each<[string, unknown, string]>([
    ['no client', {}, 'createAuthenticator: options.client must have a verifyUserToken(token) method (a PlatformClient)'],
    ['a client without verifyUserToken', { client: {} }, 'createAuthenticator: options.client must have a verifyUserToken(token) method (a PlatformClient)'],
    ['a non-boolean tokenFrom.query', { client: verifier, tokenFrom: { query: 'yes' } }, 'createAuthenticator: options.tokenFrom.query must be a boolean'],
    ['a bad cookie name', { client: verifier, tokenFrom: { cookie: 'a b' } }, "createAuthenticator: options.tokenFrom.cookie must be a cookie name such as 'SUAT'"],
    ['a cookie without verifyWebToken', { client: verifier, tokenFrom: { cookie: 'SUAT' } }, 'createAuthenticator: options.tokenFrom.cookie needs a client with a verifyWebToken(token) method'],
    ['a non-function mapUser', { client: verifier, mapUser: {} }, 'createAuthenticator: options.mapUser must be a function'],
    ['a non-function authorize', { client: verifier, authorize: 'admin' }, 'createAuthenticator: options.authorize must be a function'],
  ])('%s', (_name, options, message) => {
    expect(() => createAuthenticator(options as never)).toThrow(new TypeError(message));
  });
});

describe('the authenticator core', () => {
  it('takes the client first, options second, and exposes its realm', async () => {
    const client = fakeClient();
    const authenticate = createAuthenticator(client, { realm: 'my-game' });
    expect(authenticate.realm).toBe('my-game');
    expect(createAuthenticator(client).realm).toBe('game-platform');
    await expect(authenticate(bearer('tok'))).resolves.toEqual(USER);
  });

  it('rejects with a PlatformError carrying status, action, code, challenge (in its realm) and Retry-After', async () => {
    const client = fakeClient({
      verifyUserToken: async (token) => { throw errorForPlatformCode(token === 'gone' ? 40000 : 50000, 'E2'); },
    });
    const authenticate = createAuthenticator(client, { realm: 'my-game' });
    const invalid = (await authenticate(bearer('gone')).catch((e: unknown) => e)) as PlatformError;
    expect(invalid).toMatchObject({ status: 401, action: 'relogin', code: 40000, retryAfter: undefined });
    expect(invalid.challenge).toMatch(/^Bearer realm="my-game", error="invalid_token"/);
    const down = (await authenticate(bearer('down')).catch((e: unknown) => e)) as PlatformError;
    expect(down).toMatchObject({ status: 503, action: 'retry_later', code: 50000, retryAfter: 5, challenge: undefined });
    const missing = (await authenticate({ headers: {} }).catch((e: unknown) => e)) as PlatformError;
    expect(missing.challenge).toBe('Bearer realm="my-game"');
  });

  it('leaves the client\'s error untouched for the other adapters sharing it', async () => {
    const shared = errorForPlatformCode(40000, 'E2');
    const client = fakeClient({ verifyUserToken: async () => { throw shared; } });
    const err = await createAuthenticator(client, { realm: 'other' })(bearer('tok')).catch((e: unknown) => e);
    expect(err).not.toBe(shared);
    expect(shared.challenge).toMatch(/^Bearer realm="game-platform"/);
  });

  it('hands the verifier the caller\'s abort signal', async () => {
    const client = fakeClient();
    const signal = new AbortController().signal;
    await createAuthenticator(client)(bearer('tok'), { signal });
    expect(client.verifyUserToken).toHaveBeenCalledWith('tok', { signal });
  });

  describe('.token() for a bare token', () => {
    it('verifies it and runs the hooks with the request given', async () => {
      const client = fakeClient();
      const upgrade: AuthRequest = { method: 'GET', url: '/ws', headers: {} };
      const authorize = jest.fn(() => true);
      const authenticate = createAuthenticator(client, { mapUser: (_u, req) => ({ path: req.url }), authorize });
      await expect(authenticate.token('tok', { req: upgrade })).resolves.toEqual({ ...USER, path: '/ws' });
      expect(client.verifyUserToken).toHaveBeenCalledWith('tok');
      expect(authorize).toHaveBeenCalledWith({ ...USER, path: '/ws' }, upgrade);
    });

    it('verifies a cookie token as a web token', async () => {
      const client = fakeClient();
      await expect(createAuthenticator(client).token('web.jwt', { source: 'cookie' })).resolves.toEqual({ ...USER, guid: null });
      expect(client.verifyWebToken).toHaveBeenCalledWith('web.jwt');
    });

    it.each([['a token with a comma', 'a,b'], ['an empty token', ''], ['a placeholder', 'null'], ['a token over 4096 characters', 'a'.repeat(4097)]])(
      'rejects %s as invalid_token without calling the platform, in the authenticator\'s realm', async (_name, token) => {
        const client = fakeClient();
        const err = (await createAuthenticator(client, { realm: 'ws' }).token(token).catch((e: unknown) => e)) as PlatformError;
        expect(err).toMatchObject({ status: 401, action: 'relogin', kind: 'invalid_token' });
        expect(err.challenge).toMatch(/^Bearer realm="ws", error="invalid_token"/);
        expect(client.verifyUserToken).not.toHaveBeenCalled();
      },
    );
  });
});

describe('authorize answers: only true or nothing allows', () => {
  // Only `true` or nothing allows: a hook like `async (u) => db.countBans(u)` returns 0 for a banned player.
  it.each<[string, unknown]>([
    ['0 (a count of bans)', 0], ['an empty string', ''], ['null', null], ['NaN', Number.NaN], ['1', 1], ['"yes"', 'yes'], ['an object', { allowed: true }],
  ])('answers 500 contact_support, never an allow, when authorize returns %s', async (_name, answer) => {
    const logger = spyLogger();
    const authenticate = createAuthenticator({ client: fakeClient(), logger, authorize: () => answer as boolean });
    await expect(authenticate(bearer('tok'))).rejects.toMatchObject({ status: 500, action: 'contact_support', kind: 'configuration' });
    expect(logger.error).toHaveBeenCalledWith(expect.objectContaining({ stage: 'authorize hook', returned: typeof answer }), expect.stringContaining('true, false or nothing'));
  });

  it('logs a wrong authorize answer once, not once per request', async () => {
    const logger = spyLogger();
    const authenticate = createAuthenticator({ client: fakeClient(), logger, authorize: async () => 0 as unknown as boolean });
    for (let i = 0; i < 5; i += 1) await expect(authenticate(bearer('tok'))).rejects.toMatchObject({ status: 500 });
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it('still denies on false and allows on true, undefined and a promise of either', async () => {
    for (const answer of [true, undefined]) {
      await expect(createAuthenticator({ client: fakeClient(), authorize: async () => answer })(bearer('tok'))).resolves.toEqual(USER);
    }
    await expect(createAuthenticator({ client: fakeClient(), authorize: async () => false })(bearer('tok'))).rejects.toMatchObject({ status: 403, action: 'denied' });
  });
});
