import { performance } from 'node:perf_hooks';
import fc from 'fast-check';
import { parseAuthorization } from '../../lib/auth/authorization-header.js';
import { authorizationCredential } from '../../lib/emulator/request-log.js';
import { PlatformError } from '../../lib/errors/index.js';

// Long runs of blanks (spaces, tabs) anywhere in the value: the parsers must
// stay linear. A quadratic trim took about 0.6 s on a 16,000-space run here.

const blankRun = fc.tuple(fc.constantFrom(' ', '\t', ' \t'), fc.integer({ min: 8_000, max: 15_000 })).map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)));
const word = fc.constantFrom('', 'Bearer', 'bearer', 'Basic', 'x', 'tok', 'a,b', '!', 'Bearer tok', '=');
const value = fc.array(fc.oneof(word, blankRun), { minLength: 1, maxLength: 5 }).map((parts) => parts.join(''));

// The fastest of three runs: a loaded machine can pause any one run, but a
// quadratic parser is slow every time.
function timed<T>(fn: () => T): { ms: number; result: T | PlatformError } {
  let ms = Infinity;
  let result: T | PlatformError | undefined;
  for (let i = 0; i < 3; i += 1) {
    const start = performance.now();
    try {
      result = fn();
    } catch (err) {
      if (!(err instanceof PlatformError)) throw err;
      result = err;
    }
    ms = Math.min(ms, performance.now() - start);
  }
  return { ms, result: result! };
}

// Compiled and warm before anything is timed.
beforeAll(() => {
  for (let i = 0; i < 50; i += 1) {
    timed(() => parseAuthorization(`Bearer ${' '.repeat(100)}x`));
    timed(() => authorizationCredential(`Bearer x${' '.repeat(100)}y`));
  }
});

describe('header parsers under long whitespace runs', () => {
  it('parseAuthorization stays linear and keeps its answers', () => {
    fc.assert(
      fc.property(value, (v) => {
        const { ms, result } = timed(() => parseAuthorization(v));
        expect(ms).toBeLessThan(100);
        if (result instanceof PlatformError) {
          expect(result.status).toBe(400);
        } else if (result.kind === 'bearer') {
          expect(result.token).not.toMatch(/[ \t]/);
          expect(v.replace(/^[ \t]*/, '').slice(0, 6).toLowerCase()).toBe('bearer');
        } else if (result.kind === 'none') {
          expect(v.trim()).toBe('');
        }
      }),
      { numRuns: 200 },
    );
  });

  it('the emulator\'s credential parser stays linear and trims like before', () => {
    fc.assert(
      fc.property(value, (v) => {
        const { ms, result } = timed(() => authorizationCredential(v));
        expect(ms).toBeLessThan(100);
        const trimmed = v.trim();
        const gap = trimmed.search(/\s/);
        const expected = gap < 0 ? null : { scheme: trimmed.slice(0, gap), credential: trimmed.slice(gap).trim() };
        expect(result).toEqual(expected === null || expected.credential === '' ? null : expected);
      }),
      { numRuns: 200 },
    );
  });
});
