import { jest } from '@jest/globals';
import { isPlatformError, PlatformError } from '../../lib/errors/index.js';
import { problemResponse } from '../../lib/problem/problem-response.js';

// Another copy of the package in the same process (a plugin with its own
// node_modules) has its own PlatformError class: instanceof fails across
// copies, the registered-symbol brand does not.
async function otherCopy(): Promise<typeof import('../../lib/errors/platform-error.js')> {
  let loaded: typeof import('../../lib/errors/platform-error.js') | undefined;
  await jest.isolateModulesAsync(async () => {
    loaded = await import('../../lib/errors/platform-error.js');
  });
  return loaded!;
}

describe('isPlatformError across copies of the package', () => {
  it('recognises an error made by another copy, where instanceof answers false', async () => {
    const other = await otherCopy();
    const err = new other.PlatformError({ kind: 'device_not_registered', message: 'from the other copy', code: 46217 });
    expect(other.PlatformError).not.toBe(PlatformError);
    expect(err instanceof PlatformError).toBe(false);
    expect(isPlatformError(err)).toBe(true);
    expect(other.isPlatformError(new PlatformError({ kind: 'invalid_token', message: 'x' }))).toBe(true);
  });

  it('renders another copy\'s error with its own status and action, not as a 500', async () => {
    const other = await otherCopy();
    const { status, body } = problemResponse(new other.PlatformError({ kind: 'device_not_registered', message: 'from the other copy', code: 46217 }));
    expect(status).toBe(403);
    expect(body).toMatchObject({ action: 'register_device', code: 46217 });
  });

  it('answers false for look-alikes without the brand', () => {
    expect(isPlatformError(new Error('x'))).toBe(false);
    expect(isPlatformError({ name: 'PlatformError', kind: 'invalid_token', status: 401 })).toBe(false);
    expect(isPlatformError(null)).toBe(false);
    expect(isPlatformError('PlatformError')).toBe(false);
  });

  it('keeps the brand off the error\'s own properties', () => {
    const err = new PlatformError({ kind: 'invalid_token', message: 'x' });
    expect(Object.getOwnPropertySymbols(err)).toEqual([]);
    expect(JSON.parse(JSON.stringify(err))).not.toHaveProperty('brand');
  });
});
