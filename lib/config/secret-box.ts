import { inspect } from 'node:util';

/**
 * The key under which a resolved configuration carries its client secret as
 * an enumerable property, so `{ ...fromEnv(), cache }` keeps the secret. Its
 * value is a {@link SecretBox}: JSON, `util.inspect`, `String()` and loggers
 * see `[redacted]`, never the secret.
 */
export const CLIENT_SECRET: unique symbol = Symbol.for('passport-game-platform.clientSecret');

const REDACTED = '[redacted]';

/**
 * Holds a secret so that copying the object that carries it copies the
 * secret, while every way of printing it prints `[redacted]`. The secret sits
 * in a private field: no spread, `Object.keys`, JSON or inspection reaches it.
 */
export class SecretBox {
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  /** The secret itself, for the one call that sends it (E1). */
  reveal(): string {
    return this.#value;
  }

  toJSON(): string {
    return REDACTED;
  }

  toString(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

/** The secret a spread copy of a resolved configuration carries, if any. */
export function secretFromBox(value: unknown): string | undefined {
  return value instanceof SecretBox ? value.reveal() : undefined;
}
