import type { RequestHandler } from 'express';
import request from 'supertest';
import { platformErrorHandler, requireGameUser } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import type { Logger } from '../../lib/types.js';
import { EXPRESS_VERSIONS, loadPassport } from '../support/http-apps.js';
import { fakeVerifier } from '../support/http-fake-verifier.js';

// Nothing the application injects (logger, hooks, verify callback) may crash
// the process or leave a request unanswered, even when a hook throws and the
// logger reporting it throws too: an unguarded last fallback would be an
// unhandled rejection (process exit under Node's default).

const throwingLogger: Logger = {
  debug: () => { throw new Error('logger down'); },
  info: () => { throw new Error('logger down'); },
  warn: () => { throw new Error('logger down'); },
  error: () => { throw new Error('logger down'); },
};

// An error whose own properties throw when read.
function poisoned(): Error {
  const err = new Error('x');
  for (const name of ['message', 'name', 'stack']) Object.defineProperty(err, name, { get: () => { throw new Error('poisoned'); } });
  return err;
}

const passport = await loadPassport();
const problems: unknown[] = [];
const onProblem = (reason: unknown) => void problems.push(reason);
beforeAll(() => { process.on('unhandledRejection', onProblem); process.on('uncaughtException', onProblem); });
afterAll(() => { process.off('unhandledRejection', onProblem); process.off('uncaughtException', onProblem); });
afterEach(() => { expect(problems).toEqual([]); });

type Hooks = { mapUser?: () => never; authorize?: () => never };
const CASES: [string, Hooks][] = [
  ['authorize throws', { authorize: () => { throw new Error('sanctions down'); } }],
  ['authorize throws a poisoned error', { authorize: () => { throw poisoned(); } }],
  ['mapUser rejects', { mapUser: () => { throw new Error('profile db down'); } }],
  ['mapUser throws a poisoned error', { mapUser: () => { throw poisoned(); } }],
];

describe.each(EXPRESS_VERSIONS)('%s', (_version, expressFn) => {
  // The guard's answer to a player with a good token, every logger throwing.
  async function answerThrough(guard: RequestHandler): Promise<void> {
    const app = expressFn();
    app.get('/me', guard, (_req, res) => { res.end(); });
    app.use(platformErrorHandler({ logger: throwingLogger }));
    const res = await request(app).get('/me').set('Authorization', 'Bearer okTok').timeout(5000);
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ action: 'contact_support' });
  }

  it.each(CASES)('requireGameUser answers 500 when %s and the logger throws too', async (_name, hooks) => {
    await answerThrough(requireGameUser({ client: fakeVerifier(), logger: throwingLogger, ...hooks }));
  });

  it('platformErrorHandler answers 500 for an unexpected error when its logger throws', async () => {
    const app = expressFn();
    app.get('/me', () => { throw poisoned(); });
    app.use(platformErrorHandler({ logger: throwingLogger }));
    const res = await request(app).get('/me').timeout(5000);
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  });

  it.each<[string, (...args: never[]) => unknown]>([
    ['the verify callback throws', () => { throw new Error('db down'); }],
    ['the verify callback throws a poisoned error', () => { throw poisoned(); }],
    ['an async verify callback rejects', async () => { throw new Error('db down'); }],
    ['the verify callback passes a poisoned error to done', (_user: unknown, done: (err: unknown) => void) => done(poisoned())],
  ])('passport answers 500 when %s and the logger throws too', async (_name, verify) => {
    passport.use('throwing', new PlatformBearerStrategy({ client: fakeVerifier(), logger: throwingLogger }, verify as never));
    await answerThrough(passport.authenticate('throwing', { session: false, failWithError: true }) as RequestHandler);
  });
});
