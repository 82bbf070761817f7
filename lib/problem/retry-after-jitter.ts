/**
 * The `Retry-After` (whole seconds) of an overload or outage answer: spread
 * uniformly over 60 % to 140 % of `baseSeconds` (5 s -> 3 to 7 s), at least
 * 1 s. Clients that obey one fixed value all come back in the same second and
 * meet the same overload again; a spread with the same mean keeps the wait
 * the server asked for and thins the return.
 *
 * @param random - a source in [0, 1); `Math.random` by default.
 */
export function jitteredRetryAfter(baseSeconds: number, random: () => number = Math.random): number {
  const low = Math.max(1, Math.round(baseSeconds * 0.6));
  const high = Math.max(low, Math.round(baseSeconds * 1.4));
  const draw = Math.min(Math.max(random(), 0), 0.999999);
  return low + Math.floor(draw * (high - low + 1));
}
