import express from 'express';
import express4 from 'express4';
import type { Express, RequestHandler } from 'express';
import type { PassportStatic } from 'passport';
import { platformErrorHandler, requireGameUser, type PlatformErrorHandlerOptions, type RequireGameUserOptions } from '../../lib/middleware/index.js';
import { PlatformBearerStrategy } from '../../lib/strategy/index.js';
import { recordingLogger } from './recording-logger.js';

export { recordingLogger };

/** Both Express majors, for `describe.each`. */
export const EXPRESS_VERSIONS: [string, typeof express][] = [
  ['Express 4', express4],
  ['Express 5', express],
];

/** How the protected routes are guarded. */
export type GuardMode = 'requireGameUser' | 'passport';

/**
 * A fresh passport instance (a dev dependency: a missing one fails the specs
 * that use it rather than skipping them).
 */
export async function loadPassport(): Promise<PassportStatic> {
  const mod = (await import('passport')) as unknown as { default: PassportStatic; Passport?: new () => PassportStatic };
  return mod.Passport ? new mod.Passport() : mod.default;
}


export interface AppOptions<U extends object> {
  mode: GuardMode;
  auth: RequireGameUserOptions<U>;
  handler?: PlatformErrorHandlerOptions;
  passport?: PassportStatic | undefined;
  /** Passport only: mount `passport.initialize()` first. */
  initialize?: boolean;
  /** Passport only: options of `passport.authenticate`. */
  passportOptions?: Record<string, unknown>;
}

function guard<U extends object>(options: AppOptions<U>, overrides: Partial<RequireGameUserOptions<U>> = {}): RequestHandler {
  const auth = { logger: recordingLogger(), ...options.auth, ...overrides };
  if (options.mode === 'requireGameUser') return requireGameUser(auth);
  const passport = options.passport;
  if (!passport) throw new Error('passport is not installed');
  const name = `game-platform-${overrides.credentialsRequired === false ? 'optional' : 'required'}`;
  passport.use(name, new PlatformBearerStrategy({ ...auth, passReqToCallback: false }));
  return passport.authenticate(name, { session: false, failWithError: true, ...options.passportOptions }) as RequestHandler;
}

/**
 * A game backend: `GET|POST /api/me` (bearer), `GET /open` (credentials
 * optional), JSON and form parsers before the guard, the problem renderer last.
 */
export function buildApp<U extends object>(expressFn: typeof express, options: AppOptions<U>): Express {
  const app = expressFn();
  app.use(expressFn.json({ limit: '100kb' }));
  app.use(expressFn.urlencoded({ extended: false, limit: '100kb' }));
  if (options.mode === 'passport' && options.initialize && options.passport) app.use(options.passport.initialize() as RequestHandler);
  const me: RequestHandler = (req, res) => {
    res.json({ member_no: req.user?.memberNo, guid: req.user?.guid, user: req.user });
  };
  app.get('/api/me', guard(options), me);
  app.post('/api/me', guard(options), me);
  app.get('/open', guard(options, { credentialsRequired: false }), (req, res) => {
    res.json({ user: req.user ?? null });
  });
  app.get('/boom', () => {
    throw new Error('unexpected: db password hunter2');
  });
  app.use(platformErrorHandler({ logger: recordingLogger(), ...options.handler }));
  return app;
}

/** Listens on a free loopback port. */
export function listen(app: Express): Promise<{ port: number; close: () => Promise<void> }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(0, '127.0.0.1');
    server.once('error', reject);
    server.once('listening', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ port, close: () => new Promise<void>((done) => { server.closeAllConnections(); server.close(() => done()); }) });
    });
  });
}
