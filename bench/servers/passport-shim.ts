import { STATUS_CODES } from 'node:http';
import type { RequestHandler } from 'express';

/** What passport puts on the per-request copy of a strategy (passport 0.7 `authenticate`). */
interface StrategyRun {
  authenticate(req: unknown, options?: object): void;
  success(user: unknown, info?: unknown): void;
  fail(challenge?: unknown, status?: number): void;
  error(err: unknown): void;
  pass(): void;
  redirect(url: string, status?: number): void;
}

/**
 * `passport.authenticate(strategy, { session: false })` for one strategy, as passport 0.7 runs it:
 * a per-request object created from the strategy with the actions attached; a failure answers 401
 * with the strategy's challenge; an error goes to `next(err)`. (passport is an optional peer of the
 * package and is not installed; this is the part of it a bearer route exercises, minus its
 * multi-strategy bookkeeping, so the baseline is if anything slightly flattered.)
 */
export function authenticateWith(strategy: object): RequestHandler {
  return (req, res, next) => {
    const run = Object.create(strategy) as StrategyRun;
    run.success = (user) => {
      req.user = user as Express.User;
      next();
    };
    run.fail = (challenge, status) => {
      if (typeof challenge === 'number') {
        status = challenge;
        challenge = undefined;
      }
      res.statusCode = status ?? 401;
      if (res.statusCode === 401 && typeof challenge === 'string') res.setHeader('WWW-Authenticate', challenge);
      res.end(STATUS_CODES[res.statusCode]);
    };
    run.error = (err) => next(err);
    run.pass = () => next();
    run.redirect = (url, status = 302) => res.redirect(status, url);
    run.authenticate(req, { session: false });
  };
}
