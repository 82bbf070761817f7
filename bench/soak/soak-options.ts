/** What `npm run soak` does, from environment variables (all optional). */
export interface SoakOptions {
  /** `SOAK_DURATION_S`: seconds of steady load (default 120). */
  durationS: number;
  /** `SOAK_RATE`: requests per second offered (default 300). */
  rate: number;
  /** `SOAK_CONCURRENCY`: requests in flight at most (default 64). */
  concurrency: number;
  /** `SOAK_FAULT_RATE`: share of platform E2 calls given an injected fault (default 0.05). */
  faultRate: number;
  /** `SOAK_INVALID_RATE`: share of requests with a token the platform does not know (default 0.02). */
  invalidRate: number;
  /** `SOAK_TOKENS_START`, `SOAK_TOKENS_PER_S`: distinct user tokens at the start, and minted per second. */
  tokensStart: number;
  tokensPerS: number;
  /** `SOAK_FLOODS`: 1 (default) runs the hostile real-time clients beside the load (bench/soak/flood-shapes.ts), 0 does not. */
  floods: boolean;
  /** Hard bound of the whole run (duration + 90 s): children are killed and the run fails past it. */
  hardLimitMs: number;
}

function num(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  return value;
}

export function soakOptions(env: NodeJS.ProcessEnv = process.env): SoakOptions {
  const durationS = num(env, 'SOAK_DURATION_S', 120, 5, 3600);
  return {
    durationS,
    rate: num(env, 'SOAK_RATE', 300, 1, 20_000),
    concurrency: num(env, 'SOAK_CONCURRENCY', 64, 1, 1024),
    faultRate: num(env, 'SOAK_FAULT_RATE', 0.05, 0, 0.5),
    invalidRate: num(env, 'SOAK_INVALID_RATE', 0.02, 0, 0.5),
    tokensStart: num(env, 'SOAK_TOKENS_START', 200, 1, 100_000),
    tokensPerS: num(env, 'SOAK_TOKENS_PER_S', 20, 0, 10_000),
    floods: num(env, 'SOAK_FLOODS', 1, 0, 1) === 1,
    hardLimitMs: (durationS + 90) * 1000,
  };
}
