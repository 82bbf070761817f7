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
export function isVisibleAscii(value: string): boolean {
  return /^[\x21-\x7e]+$/.test(value);
}

export function assertVisibleAscii(value: string, name: string): void {
  if (!isVisibleAscii(value)) throw configError(`"${name}" must be printable ASCII without spaces`);
}

/**
 * A whole-number option of an adapter or of the real-time layer: `fallback`
 * when absent, else an integer from `min` to 2^31 - 1 (the longest a Node
 * timer waits, and more bytes than one connection should ever hold). The
 * TypeError names its owner and the option.
 */
export function integerOption(value: unknown, owner: string, name: string, unit: 'ms' | 'bytes', min: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > MAX_INT32) {
    throw new TypeError(`${owner}: ${name} must be an integer number of ${unit} from ${min} to ${MAX_INT32}`);
  }
  return value;
}

const MAX_INT32 = 2 ** 31 - 1;

export function integerIn(value: unknown, name: string, min: number, max: number, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    throw configError(`"${name}" must be an integer between ${min} and ${max}`);
  }
  return value;
}

/** What is wrong with a base URL, if anything: the one rule set of options and environment variables. */
export type BaseUrlIssue = 'not_http_url' | 'credentials' | 'query_or_fragment';

/** Checks a base URL; when it is fine, returns it normalized (origin and path, no trailing slash). */
export function checkBaseUrl(raw: string): { url: string } | { issue: BaseUrlIssue } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { issue: 'not_http_url' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { issue: 'not_http_url' };
  if (url.username !== '' || url.password !== '') return { issue: 'credentials' };
  if (url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#')) return { issue: 'query_or_fragment' };
  return { url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

const BASE_URL_MESSAGES: Record<BaseUrlIssue, string> = {
  not_http_url: '"baseUrl" must be an http(s) URL',
  credentials: '"baseUrl" must not contain credentials',
  query_or_fragment: '"baseUrl" must not contain a query or a fragment',
};

export function parseBaseUrl(value: unknown): string {
  const checked = checkBaseUrl(requiredString(value, 'baseUrl'));
  if ('issue' in checked) throw configError(BASE_URL_MESSAGES[checked.issue]);
  return checked.url;
}
