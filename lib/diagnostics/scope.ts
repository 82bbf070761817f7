/**
 * Which instance published a channel message: an opaque, empty, frozen
 * object, never the instance itself (a client holds its secret). It rides on
 * the message under a symbol, non-enumerable: spreads, `JSON.stringify` and
 * a default `inspect` leave it out (and it holds nothing).
 */
export type Scope = Readonly<Record<never, never>>;

const SCOPE = Symbol('passport-game-platform:scope');

export function newScope(): Scope {
  return Object.freeze(Object.create(null) as Scope);
}

/** Marks `message` as published by the instance owning `scope`; returns it. */
export function inScope<M extends object>(message: M, scope: Scope): M {
  Object.defineProperty(message, SCOPE, { value: scope });
  return message;
}

/** The scope a message was published in, if any. */
export function scopeOf(message: unknown): Scope | undefined {
  return typeof message === 'object' && message !== null ? (message as { [SCOPE]?: Scope })[SCOPE] : undefined;
}
