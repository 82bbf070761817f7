/** A URL without its password, for log lines. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'redis://(unparsable URL)';
  }
}

/** The password of a Redis URL (decoded), '' when it has none or cannot be parsed. */
export function passwordOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).password);
  } catch {
    return '';
  }
}

/** A short description of a Redis error (its code or first line), with each of `secrets` masked. */
export function describeRedisError(error: unknown, secrets: readonly string[] = []): string {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  const message = error instanceof Error ? error.message.split('\n', 1)[0]!.slice(0, 200) : typeof error === 'string' ? error.slice(0, 200) : 'unknown error';
  let text = typeof code === 'string' ? `${code}: ${message}` : message;
  for (const secret of secrets) if (secret !== '') text = text.split(secret).join('***');
  return text;
}
