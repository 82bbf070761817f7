import bearer from 'passport-http-bearer';

// passport-http-bearer is our chosen base class, but its community typings reference @types/koa
// (for koa-passport), which clashes with Express 5's types in a user's strict build. So the
// package's declarations describe the one slice of the base we use, and nothing else.

/** What `PlatformBearerStrategy` inherits from passport-http-bearer's `Strategy`. */
export interface BearerBaseStrategy {
  /** The strategy's name in `passport.use()` / `passport.authenticate()`. */
  name: string;
  /** Called by passport for each request (ours replaces the parent's). */
  authenticate(req: unknown, options?: object): void;
}

/** The constructor of passport-http-bearer's `Strategy`, as we call it. */
export interface BearerBaseConstructor {
  new (options: { realm?: string | undefined }, verify: (...args: never[]) => void): BearerBaseStrategy;
}

/** passport-http-bearer's `Strategy` class (loaded from the package, typed by us). */
export const BearerBase = (bearer as unknown as { Strategy: BearerBaseConstructor }).Strategy;
