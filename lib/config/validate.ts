// Option checks. Messages name the option and never echo its value, so a
// secret passed in the wrong place cannot reach a log through a TypeError.

const PREFIX = 'passport-game-platform:';

export function configError(message: string): TypeError {
  return new TypeError(`${PREFIX} ${message}`);
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export function requiredString(value: unknown, name: string): string {
  if (value === undefined || value === null || value === '') throw configError(`"${name}" is required`);
  if (typeof value !== 'string') throw configError(`"${name}" must be a string`);
  return value;
}

export function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value === '') throw configError(`"${name}" must be a non-empty string`);
  return value;
}

// Values that end up in a header (caller-id) or a URL path: visible ASCII only.
export function assertVisibleAscii(value: string, name: string): void {
  if (!/^[\x21-\x7e]+$/.test(value)) throw configError(`"${name}" must be printable ASCII without spaces`);
}

export function integerIn(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw configError(`"${name}" must be an integer between ${min} and ${max}`);
  }
  return value;
}

export function parseBaseUrl(value: unknown): string {
  const raw = requiredString(value, 'baseUrl');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw configError('"baseUrl" must be an http(s) URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw configError('"baseUrl" must be an http(s) URL');
  if (url.username !== '' || url.password !== '') throw configError('"baseUrl" must not contain credentials');
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) {
    throw configError('"baseUrl" must not contain a query or a fragment');
  }
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}
