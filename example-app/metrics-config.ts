/** Where and to whom the example app serves `/metrics` (METRICS_TOKEN, METRICS_PORT). */
export interface MetricsSettings {
  /** `METRICS_TOKEN`: `/metrics` needs `Authorization: Bearer <it>`; null: no token. */
  token: string | null;
  /** `METRICS_PORT`: `/metrics` on this port only, not on the API port; null: none. */
  port: number | null;
}

/** Shortest METRICS_TOKEN accepted: a guessable token would be as good as none. */
export const MIN_METRICS_TOKEN_LENGTH = 16;

type Env = Readonly<Record<string, string | undefined>>;

const read = (env: Env, name: string): string | undefined => {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
};

/**
 * Reads the metrics settings; throws an Error naming the variable to fix.
 * Neither set: no `/metrics` at all (the API port answers it 404); it is
 * never served to anonymous clients on the API port.
 */
export function loadMetricsSettings(env: Env): MetricsSettings {
  const token = read(env, 'METRICS_TOKEN');
  if (token !== undefined && (token.length < MIN_METRICS_TOKEN_LENGTH || token.length > 256 || !/^[\x21-\x7e]+$/.test(token))) {
    throw new Error(`METRICS_TOKEN must be ${MIN_METRICS_TOKEN_LENGTH} to 256 visible ASCII characters (e.g. openssl rand -hex 32).`);
  }
  const port = read(env, 'METRICS_PORT');
  if (port !== undefined && (!/^\d{1,5}$/.test(port) || Number(port) > 65535)) {
    throw new Error(`METRICS_PORT must be a whole number from 0 to 65535, got "${port}".`);
  }
  return { token: token ?? null, port: port === undefined ? null : Number(port) };
}
