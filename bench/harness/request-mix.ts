import type autocannon from 'autocannon';

/** How one request of a player is written. */
export type RequestBuilder = (token: string) => autocannon.Request;

/** A bearer GET of `path` (the protected and unprotected routes). */
export function bearerGet(path: string): RequestBuilder {
  return (token) => ({ method: 'GET', path, headers: { authorization: `Bearer ${token}` } });
}

/**
 * The player mix: each autocannon connection plays one player at a time, sending `burst` requests
 * in a row with that player's token, then takes the next player (all connections share one
 * round-robin cursor over `tokens`). A player's requests are sequential, as a game client's are.
 */
export function playerRequests(tokens: readonly string[], burst: number, build: RequestBuilder): autocannon.Request[] {
  if (tokens.length === 0) throw new Error('playerRequests: no tokens');
  if (!Number.isInteger(burst) || burst < 1) throw new Error('playerRequests: burst must be a positive integer');
  let cursor = 0;
  const first: autocannon.Request = {
    setupRequest: (req, context) => {
      const token = tokens[cursor % tokens.length]!;
      cursor += 1;
      context.token = token;
      return { ...req, ...build(token) };
    },
  };
  const next: autocannon.Request = {
    setupRequest: (req, context) => ({ ...req, ...build(context.token as string) }),
  };
  return [first, ...Array.from({ length: burst - 1 }, () => next)];
}
