import { jest } from '@jest/globals';
import type { Request } from 'express';
import { passportFailureOf } from '../../lib/adapters/passport-failure.js';
import { PlatformError, errorForPlatformCode } from '../../lib/errors/index.js';
import { PlatformBearerStrategy, type PlatformBearerStrategyOptions } from '../../lib/strategy/platform-bearer-strategy.js';
import type { GameUser, Logger } from '../../lib/types.js';
import { recordingLogger } from '../support/recording-logger.js';

const USER: GameUser = { memberNo: '20005061986', guid: null };
const quietLogger: Logger = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

type Action = { name: 'success' | 'fail' | 'error' | 'pass' | 'redirect'; args: unknown[] };

/** Runs the strategy as passport.authenticate() does and resolves with the first action. */
function run(strategy: PlatformBearerStrategy, req: Partial<Request>, options: Record<string, unknown> = {}) {
  const actions: Action[] = [];
  return new Promise<{ first: Action; actions: Action[] }>((resolve) => {
    const instance = Object.create(strategy) as Record<string, unknown> & { authenticate: PlatformBearerStrategy['authenticate'] };
    for (const name of ['success', 'fail', 'error', 'pass', 'redirect'] as const) {
      instance[name] = (...args: unknown[]) => {
        actions.push({ name, args });
        if (actions.length === 1) setTimeout(() => resolve({ first: actions[0]!, actions }), 20);
      };
    }
    instance.authenticate({ method: 'GET', url: '/api/me', headers: {}, ...req } as Request, options);
  });
}

function strategyWith(verifyUserToken: (token: string) => Promise<GameUser>, extra: Partial<PlatformBearerStrategyOptions> & { passReqToCallback?: false } = {}) {
  return new PlatformBearerStrategy({ client: { verifyUserToken }, logger: quietLogger, ...extra });
}

const auth = (value: string) => ({ headers: { authorization: value } });

describe('PlatformBearerStrategy', () => {
  it('is named game-platform and extends passport-http-bearer', async () => {
    const { Strategy } = await import('passport-http-bearer');
    const strategy = strategyWith(async () => USER);
    expect(strategy.name).toBe('game-platform');
    expect(strategy).toBeInstanceOf(Strategy);
  });

  it('calls success(user) exactly once for a valid token', async () => {
    const { first, actions } = await run(strategyWith(async () => USER), auth('Bearer tok'));
    expect(first).toEqual({ name: 'success', args: [USER, undefined] });
    expect(actions).toHaveLength(1);
  });

  it.each<[string, string | undefined, number, string | undefined]>([
    ['no credentials', undefined, 401, 'Bearer realm="game-platform"'],
    ['another scheme', 'Basic abc', 401, 'Bearer realm="game-platform"'],
    ['Bearer alone', 'Bearer', 400, 'Bearer realm="game-platform", error="invalid_request", error_description="missing bearer token"'],
    ['a malformed token', 'Bearer a<b', 401, 'Bearer realm="game-platform", error="invalid_token", error_description="token has characters outside the bearer token syntax"'],
  ])('fails %s with an RFC 6750 challenge and no platform call', async (_name, header, status, challenge) => {
    const verify = jest.fn(async () => USER);
    const { first } = await run(strategyWith(verify), header === undefined ? {} : auth(header));
    expect(first).toEqual({ name: 'fail', args: [challenge, status] });
    expect(verify).not.toHaveBeenCalled();
  });

  it('fails 40000 with invalid_token and records the structured error', async () => {
    const error = errorForPlatformCode(40000, 'E2');
    const req = auth('Bearer tok');
    const { first } = await run(strategyWith(async () => { throw error; }, { realm: 'my game' }), req);
    expect(first.name).toBe('fail');
    expect(first.args).toEqual([expect.stringMatching(/^Bearer realm="my game", error="invalid_token"/), 401]);
  });

  it('records the failure so an error handler can render it', async () => {
    const error = errorForPlatformCode(46217, 'E2');
    const req = { method: 'GET', url: '/', headers: { authorization: 'Bearer tok' } } as Request;
    const strategy = strategyWith(async () => { throw error; });
    const instance = Object.create(strategy) as Record<string, unknown>;
    const done = new Promise<unknown[]>((resolve) => { instance.fail = (...args: unknown[]) => resolve(args); });
    (instance as unknown as PlatformBearerStrategy).authenticate(req, {});
    expect(await done).toEqual([403]);
    expect(passportFailureOf(req)).toBe(error);
  });

  it.each([40105, 41002, 40101, 50000])('takes the error() road for a server-side fault (%i), never fail()', async (code) => {
    const error = errorForPlatformCode(code, 'E2');
    const { first, actions } = await run(strategyWith(async () => { throw error; }), auth('Bearer tok'));
    expect(first).toEqual({ name: 'error', args: [error] });
    expect(actions).toHaveLength(1);
  });

  it('passes a request without credentials when credentialsRequired is false', async () => {
    const { first } = await run(strategyWith(async () => USER, { credentialsRequired: false }), {});
    expect(first.name).toBe('pass');
  });

  it('still fails a malformed token when credentialsRequired is false', async () => {
    const { first } = await run(strategyWith(async () => USER, { credentialsRequired: false }), auth('Bearer a,b'));
    expect(first.name).toBe('fail');
  });

  it('fails a CORS preflight lookalike without credentials (real preflights are answered by CORS before us)', async () => {
    const preflight = { method: 'OPTIONS', headers: { 'access-control-request-method': 'GET' } };
    const { first } = await run(strategyWith(async () => USER), preflight);
    expect(first).toEqual({ name: 'fail', args: ['Bearer realm="game-platform"', 401] });
  });

  it('authenticates an OPTIONS request that is not a preflight', async () => {
    const { first } = await run(strategyWith(async () => USER), { method: 'OPTIONS' });
    expect(first).toEqual({ name: 'fail', args: ['Bearer realm="game-platform"', 401] });
  });

  it('turns sessions off unless the route asked for them', async () => {
    const strategy = strategyWith(async () => USER);
    const defaults: Record<string, unknown> = {};
    await run(strategy, auth('Bearer tok'), defaults);
    expect(defaults.session).toBe(false);
    const explicit = { session: true };
    await run(strategy, auth('Bearer tok'), explicit);
    expect(explicit.session).toBe(true);
  });

  it('reports an action that throws through error(), once, without an unhandled rejection', async () => {
    const strategy = strategyWith(async () => USER);
    const instance = Object.create(strategy) as Record<string, unknown>;
    const calls: string[] = [];
    const errored = new Promise<unknown>((resolve) => {
      instance.success = () => { calls.push('success'); throw new Error('passport.initialize() middleware not in use'); };
      instance.error = (err: unknown) => { calls.push('error'); resolve(err); };
    });
    (instance as unknown as PlatformBearerStrategy).authenticate({ method: 'GET', headers: { authorization: 'Bearer tok' } } as Request, {});
    expect(await errored).toMatchObject({ status: 500 });
    expect(calls).toEqual(['success', 'error']);
  });
});

describe('PlatformBearerStrategy verify callback', () => {
  const client = { verifyUserToken: async () => USER };

  it('receives the user and may add info', async () => {
    const strategy = new PlatformBearerStrategy({ client }, (user, done) => done(null, { ...user, guid: '7' }, { scope: 'play' }));
    const { first } = await run(strategy, auth('Bearer tok'));
    expect(first).toEqual({ name: 'success', args: [{ ...USER, guid: '7' }, { scope: 'play' }] });
  });

  it('ends the request through error() when an async verify callback rejects (passport ignores a returned promise)', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const logger = recordingLogger();
      // An async verify callback on purpose: passport ignores the promise it returns.
      // eslint-disable-next-line @typescript-eslint/no-misused-promises
      const strategy = new PlatformBearerStrategy({ client, logger }, async () => {
        throw new Error('database down');
      });
      const { first, actions } = await run(strategy, auth('Bearer tok'));
      expect(first.name).toBe('error');
      expect(first.args[0]).toMatchObject({ status: 500, action: 'contact_support' });
      expect(actions).toHaveLength(1);
      expect(logger.at('error')).toEqual([expect.objectContaining({ obj: expect.objectContaining({ errorMessage: 'database down' }) })]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('receives the request first with passReqToCallback', async () => {
    const strategy = new PlatformBearerStrategy({ client, passReqToCallback: true }, (req, user, done) => done(null, { ...user, guid: req.url ?? null }));
    const { first } = await run(strategy, { ...auth('Bearer tok'), url: '/p' });
    expect(first.args[0]).toEqual({ ...USER, guid: '/p' });
  });

  it('denies with 403 when done(null, false); a second done is ignored', async () => {
    const strategy = new PlatformBearerStrategy({ client }, (_user, done) => { done(null, false); done(null, USER); });
    const { first, actions } = await run(strategy, auth('Bearer tok'));
    expect(first).toEqual({ name: 'fail', args: [403] });
    expect(actions).toHaveLength(1);
  });

  it.each<[string, unknown]>([['0', 0], ['an empty string', ''], ['true', true], ['a number string', '20005061986']])(
    'answers 500, never a success, when done gets %s as the user', async (_name, odd) => {
      const strategy = new PlatformBearerStrategy({ client, logger: quietLogger }, (_user, done) => done(null, odd as never));
      const { first } = await run(strategy, auth('Bearer tok'));
      expect(first.name).toBe('error');
      expect(first.args[0]).toMatchObject({ status: 500, action: 'contact_support' });
    },
  );

  it('denies with 403 when done(null, null) or done(null)', async () => {
    for (const verify of [(_u: GameUser, done: (e: unknown, u?: null) => void) => done(null, null), (_u: GameUser, done: (e: unknown) => void) => done(null)]) {
      const { first } = await run(new PlatformBearerStrategy({ client }, verify), auth('Bearer tok'));
      expect(first).toEqual({ name: 'fail', args: [403] });
    }
  });

  it('answers a generic 500 when verify throws or passes a foreign error', async () => {
    for (const verify of [() => { throw new Error('x'); }, (_u: GameUser, done: (e: unknown) => void) => done(new Error('y'))]) {
      const strategy = new PlatformBearerStrategy({ client, logger: quietLogger }, verify);
      const { first } = await run(strategy, auth('Bearer tok'));
      expect(first.name).toBe('error');
      expect(first.args[0]).toBeInstanceOf(PlatformError);
      expect(first.args[0]).toMatchObject({ status: 500 });
    }
  });

  it.each<[string, unknown, string]>([
    ['a bad realm', { client, realm: '' }, 'PlatformBearerStrategy: options.realm must be a non-empty string'],
    ['a bad credentialsRequired', { client, credentialsRequired: 'no' }, 'PlatformBearerStrategy: options.credentialsRequired must be a boolean'],
    ['no client', {}, 'PlatformBearerStrategy: options.client must have a verifyUserToken(token) method (a PlatformClient)'],
  ])('rejects %s at construction', (_name, options, message) => {
    expect(() => new PlatformBearerStrategy(options as never)).toThrow(new TypeError(message));
  });
});
